// The fake SMM panel's API v2 actions (services, balance, add, status, refill, refill_status, cancel) on one
// scope's state, answered as the panel means them; smm-provider.ts serves them over HTTP and garbles or delays them
// as its switches say.

import { formatScaled } from '../../worker/lib/decimal';
import type { CatalogueService } from './smm-catalogue';
import type { Faults } from './smm-faults';
import { type Outcome, PanelError, type PanelOrder, planOrder, progress, requireText } from './smm-orders';
import type { PanelWebhooks } from './smm-webhooks';

type Mode = 'normal' | 'fail' | 'timeout' | 'garbage' | 'no_balance' | 'active_order' | 'accept_then_timeout';
export const MODES: Mode[] = ['normal', 'fail', 'timeout', 'garbage', 'no_balance', 'active_order', 'accept_then_timeout'];

interface Refill {
  id: number;
  orderId: number;
  createdAt: number;
}

interface Controls {
  mode: Mode;
  /** Outcome given to orders created from now on; null = decided by the order id. */
  forceOutcome: Outcome | null;
  stepMs: number;
  /** Panels disagree on whether numbers are JSON strings or numbers. */
  numberFormat: 'string' | 'number';
  /** Panels answer multi refill_status as a list or as an object keyed by refill id. */
  refillStatusShape: 'array' | 'object';
}

export interface PanelState {
  services: Map<number, CatalogueService>;
  balanceMicros: bigint;
  orders: Map<number, PanelOrder>;
  refills: Map<number, Refill>;
  addCallsByLink: Map<string, number>;
  /** `add` calls per link answered with a refusal ({"error"}): certainly no order, so a retry is safe. */
  addRefusalsByLink: Map<string, number>;
  controls: Controls;
  faults: Faults;
  webhooks: PanelWebhooks;
}

/** The panel's next ids, shared by every scope and never repeated across restarts, as on a real panel. */
export interface PanelIds {
  nextOrderId: number;
  nextRefillId: number;
}

const BATCH_LIMIT = 100;
const ACTIVE_ORDER_ERROR = 'You have active order with this link. Please wait until order being completed.';

function money(state: PanelState, micros: bigint): string | number {
  const text = formatScaled(micros, 6, 5);
  return state.controls.numberFormat === 'string' ? text : Number(text);
}

function count(state: PanelState, value: number): string | number {
  return state.controls.numberFormat === 'string' ? String(value) : value;
}

/** The order as it stands now, its steps paced by the panel's step. */
export const view = (state: PanelState, order: PanelOrder) => progress(order, state.controls.stepMs);

/** Returns refunds of finished orders to the balance, once each, as a panel does. */
export function settle(state: PanelState): void {
  for (const order of state.orders.values()) {
    if (order.settled || order.pinned) continue;
    const current = view(state, order);
    if (!current.final) continue;
    state.balanceMicros += order.chargeMicros - current.chargeMicros;
    order.settled = true;
  }
}

/** The order's status answer as the panel means it, before any switch garbles it. */
export function plainStatus(state: PanelState, order: PanelOrder): Record<string, unknown> {
  if (order.pinned) return { ...order.pinned };
  const current = view(state, order);
  const answer: Record<string, unknown> = {
    charge: money(state, current.chargeMicros),
    start_count: count(state, current.startCount),
    status: current.status,
  };
  if (order.kind === 'subscription') answer.posts = count(state, current.chunksDone!);
  else answer.remains = count(state, current.remains);
  if (order.kind === 'drip-feed') answer.runs = count(state, current.chunksDone!);
  answer.currency = 'USD';
  return answer;
}

const statusAnswer = (state: PanelState, order: PanelOrder) =>
  state.faults.garbleStatus(plainStatus(state, order), {
    orderId: order.id,
    quantity: order.quantity,
    count: (value) => count(state, value),
    money: (micros) => money(state, micros),
    // A pinned answer keeps the charge it was pinned with.
    chargeMicros: order.pinned ? null : view(state, order).chargeMicros,
  });

function outcomeFor(state: PanelState, orderId: number): Outcome {
  if (state.controls.forceOutcome) return state.controls.forceOutcome;
  // Deterministic per id: roughly one order in ten ends Partial and one in ten Canceled.
  if (orderId % 10 === 3) return 'partial';
  if (orderId % 10 === 7) return 'canceled';
  return 'completed';
}

function add(state: PanelState, ids: PanelIds, params: Record<string, string>): { order: number } {
  const service = state.services.get(Number(params.service));
  if (!service || !/^\d+$/.test(params.service ?? '')) throw new PanelError('Incorrect service ID');
  const planned = planOrder(service, params);
  if (state.controls.mode === 'active_order') throw new PanelError(ACTIVE_ORDER_ERROR);
  if (state.controls.mode === 'no_balance' || planned.chargeMicros > state.balanceMicros) throw new PanelError('Not enough funds on balance');
  state.balanceMicros -= planned.chargeMicros;
  const id = ids.nextOrderId++;
  const previous = [...state.orders.keys()].at(-1);
  state.orders.set(id, {
    id,
    service,
    ...planned,
    createdAt: Date.now(),
    outcome: outcomeFor(state, id),
    startCount: 1000 + ((id * 7919) % 50_000),
    canceledAt: null,
    pinned: null,
    settled: false,
  });
  // A panel that mixes up its answers: the order exists, the caller hears of another one.
  if (previous !== undefined && state.faults.hits('duplicateOrderId', 'add')) return { order: previous };
  return { order: id };
}

export function findOrder(state: PanelState, id: string): PanelOrder | undefined {
  return /^\d+$/.test(id.trim()) ? state.orders.get(Number(id.trim())) : undefined;
}

function idList(value: string | undefined): string[] {
  const ids = requireText(value, 'Incorrect request')
    .split(',')
    .map((id) => id.trim());
  if (ids.length > BATCH_LIMIT) throw new PanelError(`Maximum ${BATCH_LIMIT} IDs per request`);
  return ids;
}

function createRefill(state: PanelState, ids: PanelIds, orderId: string): number {
  const order = findOrder(state, orderId);
  if (!order) throw new PanelError('Incorrect order ID');
  if (!order.service.refill) throw new PanelError('Refill is disabled for this service');
  const status = view(state, order).status.toLowerCase();
  if (status !== 'completed' && status !== 'partial') throw new PanelError('Order is not completed');
  const open = [...state.refills.values()].some((refill) => refill.orderId === order.id && refillStatus(state, refill) !== 'Completed');
  if (open) throw new PanelError('Refill request already exists');
  if (state.faults.hits('refillRefusal', 'refill', [order.id])) throw new PanelError('Refill is not available for this order');
  const id = ids.nextRefillId++;
  state.refills.set(id, { id, orderId: order.id, createdAt: Date.now() });
  return id;
}

function refillStatus(state: PanelState, refill: Refill): string {
  const step = Math.floor((Date.now() - refill.createdAt) / Math.max(1, state.controls.stepMs));
  return step === 0 ? 'Pending' : step === 1 ? 'In progress' : 'Completed';
}

function requestCancel(state: PanelState, orderId: string): void {
  const order = findOrder(state, orderId);
  if (!order) throw new PanelError('Incorrect order ID');
  if (!order.service.cancel) throw new PanelError('Cancel is disabled for this service');
  if (view(state, order).final) throw new PanelError('Order cannot be canceled');
  if (state.faults.hits('cancelRefusal', 'cancel', [order.id])) throw new PanelError('Order cannot be canceled at the moment');
  order.canceledAt = Date.now();
}

/** Runs one per-id step of a batch action, turning a refusal into that entry's {error}. */
function perItem<T>(work: () => T): T | { error: string } {
  try {
    return work();
  } catch (error) {
    if (error instanceof PanelError) return { error: error.message };
    throw error;
  }
}

/** One API v2 call's answer; a refusal is thrown as a PanelError, its message the panel's {"error"}. */
export function dispatch(state: PanelState, ids: PanelIds, action: string, params: Record<string, string>): unknown {
  switch (action) {
    case 'services':
      return [...state.services.values()].map((service) => ({
        ...service,
        min: count(state, service.min),
        max: count(state, service.max),
      }));
    case 'balance':
      return { balance: money(state, state.balanceMicros), currency: 'USD' };
    case 'add':
      return add(state, ids, params);
    case 'status': {
      if (params.orders !== undefined) {
        return Object.fromEntries(
          idList(params.orders).map((id) => {
            const order = findOrder(state, id);
            return [id, order ? statusAnswer(state, order) : { error: 'Incorrect order ID' }];
          }),
        );
      }
      const order = findOrder(state, requireText(params.order, 'Incorrect order ID'));
      if (!order) throw new PanelError('Incorrect order ID');
      return statusAnswer(state, order);
    }
    case 'refill':
      if (params.orders !== undefined) {
        return idList(params.orders).map((id) => ({ order: Number(id) || id, refill: perItem(() => createRefill(state, ids, id)) }));
      }
      return { refill: String(createRefill(state, ids, requireText(params.order, 'Incorrect order ID'))) };
    case 'refill_status': {
      const statusOf = (id: string) => {
        const refill = /^\d+$/.test(id) ? state.refills.get(Number(id)) : undefined;
        return refill ? refillStatus(state, refill) : null;
      };
      if (params.refills !== undefined) {
        const ids = idList(params.refills);
        if (state.controls.refillStatusShape === 'object') {
          return Object.fromEntries(
            ids.map((id) => {
              const status = statusOf(id);
              return [id, status !== null ? { status } : { error: 'Refill not found' }];
            }),
          );
        }
        return ids.map((id) => ({ refill: Number(id) || id, status: statusOf(id) ?? { error: 'Refill not found' } }));
      }
      const status = statusOf(requireText(params.refill, 'Incorrect refill ID'));
      if (status === null) throw new PanelError('Incorrect refill ID');
      return { status };
    }
    case 'cancel':
      return idList(params.orders ?? params.order).map((id) => {
        const result = perItem(() => requestCancel(state, id));
        return { order: Number(id) || id, cancel: result === undefined ? 1 : result };
      });
    default:
      throw new PanelError('Incorrect request');
  }
}
