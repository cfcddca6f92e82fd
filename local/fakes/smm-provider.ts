// A local SMM panel speaking the "API v2" protocol (PerfectPanel style) at
// /api/v2: form-encoded POST (or GET query) with key + action, JSON answers,
// errors as HTTP 200 {"error": "..."}, numbers as strings. Orders move through
// Pending -> In progress -> Completed / Partial / Canceled as time passes, and
// test controls under /__* break it in the ways real panels break.

import { ceilDiv, formatScaled, parseDecimal } from '../../worker/lib/decimal';
import { catalogue, type CatalogueService } from './smm-catalogue';
import { isOneOf, readFields, Scopes, sendGarbage, sendJson, startFakeServer, type FakeRequest, type RunningFake } from './http';
import type { ServerResponse } from 'node:http';

export interface FakeSmmProviderOptions {
  apiKey: string;
  port?: number;
  /** Milliseconds per progress step; an order finishes after 3 steps. */
  stepMs?: number;
  /** Starting balance in USD, as decimal text. */
  balance?: string;
}

type Mode = 'normal' | 'fail' | 'timeout' | 'garbage' | 'no_balance' | 'active_order' | 'accept_then_timeout';
type Outcome = 'completed' | 'partial' | 'canceled';

interface Order {
  id: number;
  service: CatalogueService;
  link: string;
  quantity: number;
  /** What `add` took from the balance, in micro-USD. */
  chargeMicros: bigint;
  createdAt: number;
  outcome: Outcome;
  startCount: number;
  canceledAt: number | null;
  /** Set by POST /__orders/:id: the order stops moving and reports exactly this. */
  pinned: { status: string; remains: number; startCount: number; chargeMicros: bigint } | null;
  /** Whether the final state's refund went back to the balance. */
  settled: boolean;
}

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

interface PanelState {
  services: Map<number, CatalogueService>;
  balanceMicros: bigint;
  orders: Map<number, Order>;
  refills: Map<number, Refill>;
  addCallsByLink: Map<string, number>;
  controls: Controls;
}

interface OrderView {
  status: string;
  remains: number;
  startCount: number;
  chargeMicros: bigint;
  final: boolean;
}

const MICROS_PER_USD = 1_000_000n;
/** Panels charge in units of 0.00001 USD, shown with five decimals. */
const CHARGE_GRANULARITY_MICROS = 10n;
const STEPS_TO_FINISH = 3;
const BATCH_LIMIT = 100;
const SUBSCRIPTION_DELAYS = new Set([0, 5, 10, 15, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 360, 420, 480, 540, 600]);
const ACTIVE_ORDER_ERROR = 'You have active order with this link. Please wait until order being completed.';

class PanelError extends Error {}

export async function startFakeSmmProvider(options: FakeSmmProviderOptions): Promise<RunningFake> {
  const startingBalance = parseDecimal(options.balance ?? '5000.00', 6);
  // Ids never repeat across restarts, as on a real panel: the shop keeps provider order ids unique.
  let nextOrderId = Math.floor(Date.now() / 1000) * 10;
  let nextRefillId = Math.floor(Date.now() / 1000);

  const scopes = new Scopes<PanelState>(() => ({
    services: new Map(catalogue().map((service) => [service.service, service])),
    balanceMicros: startingBalance,
    orders: new Map(),
    refills: new Map(),
    addCallsByLink: new Map(),
    controls: { mode: 'normal', forceOutcome: null, stepMs: options.stepMs ?? 4000, numberFormat: 'string', refillStatusShape: 'array' },
  }));

  function money(state: PanelState, micros: bigint): string | number {
    const text = formatScaled(micros, 6, 5);
    return state.controls.numberFormat === 'string' ? text : Number(text);
  }

  function count(state: PanelState, value: number): string | number {
    return state.controls.numberFormat === 'string' ? String(value) : value;
  }

  function roundCharge(micros: bigint): bigint {
    return ceilDiv(micros, CHARGE_GRANULARITY_MICROS) * CHARGE_GRANULARITY_MICROS;
  }

  function view(state: PanelState, order: Order, now = Date.now()): OrderView {
    if (order.pinned) {
      const final = ['completed', 'partial', 'canceled', 'cancelled'].includes(order.pinned.status.toLowerCase());
      return { ...order.pinned, final };
    }
    const { quantity } = order;
    if (order.canceledAt !== null) return { status: 'Canceled', remains: quantity, startCount: order.startCount, chargeMicros: 0n, final: true };
    const step = Math.floor((now - order.createdAt) / Math.max(1, state.controls.stepMs));
    if (step === 0) return { status: 'Pending', remains: quantity, startCount: 0, chargeMicros: order.chargeMicros, final: false };
    if (step < STEPS_TO_FINISH) {
      const delivered = Math.floor((quantity * step) / STEPS_TO_FINISH);
      return { status: 'In progress', remains: quantity - delivered, startCount: order.startCount, chargeMicros: order.chargeMicros, final: false };
    }
    if (order.outcome === 'canceled') return { status: 'Canceled', remains: quantity, startCount: order.startCount, chargeMicros: 0n, final: true };
    if (order.outcome === 'partial' && quantity > 1) {
      const remains = Math.max(1, Math.floor((quantity * (15 + (order.id % 20))) / 100));
      const chargeMicros = roundCharge((order.chargeMicros * BigInt(quantity - remains)) / BigInt(quantity));
      return { status: 'Partial', remains, startCount: order.startCount, chargeMicros, final: true };
    }
    return { status: 'Completed', remains: 0, startCount: order.startCount, chargeMicros: order.chargeMicros, final: true };
  }

  /** Returns refunds of finished orders to the balance, once each, as a panel does. */
  function settle(state: PanelState): void {
    for (const order of state.orders.values()) {
      if (order.settled || order.pinned) continue;
      const current = view(state, order);
      if (!current.final) continue;
      state.balanceMicros += order.chargeMicros - current.chargeMicros;
      order.settled = true;
    }
  }

  function statusAnswer(state: PanelState, order: Order) {
    const current = view(state, order);
    return {
      charge: money(state, current.chargeMicros),
      start_count: count(state, current.startCount),
      status: current.status,
      remains: count(state, current.remains),
      currency: 'USD',
    };
  }

  function outcomeFor(state: PanelState, orderId: number): Outcome {
    if (state.controls.forceOutcome) return state.controls.forceOutcome;
    // Deterministic per id: roughly one order in ten ends Partial and one in ten Canceled.
    if (orderId % 10 === 3) return 'partial';
    if (orderId % 10 === 7) return 'canceled';
    return 'completed';
  }

  function requireWhole(value: string | undefined, message: string): number {
    if (value === undefined || !/^\d+$/.test(value.trim())) throw new PanelError(message);
    const parsed = Number(value.trim());
    if (!Number.isSafeInteger(parsed)) throw new PanelError(message);
    return parsed;
  }

  function requireText(value: string | undefined, message: string): string {
    if (value === undefined || value.trim() === '') throw new PanelError(message);
    return value.trim();
  }

  function lines(value: string | undefined, message: string): string[] {
    const items = requireText(value, message)
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    if (items.length === 0) throw new PanelError(message);
    return items;
  }

  function checkRange(service: CatalogueService, quantity: number): void {
    if (quantity < service.min) throw new PanelError(`Quantity less than minimal ${service.min}`);
    if (quantity > service.max) throw new PanelError(`Quantity more than maximal ${service.max}`);
  }

  /** Validates the fields the service type needs, as panels do; returns how many units are billed. */
  function billedUnits(service: CatalogueService, params: Record<string, string>): { link: string; units: number; quantity: number } {
    if (service.type === 'Subscriptions') {
      const username = requireText(params.username, 'Incorrect username');
      const min = requireWhole(params.min, 'Incorrect min');
      const max = requireWhole(params.max, 'Incorrect max');
      if (min > max) throw new PanelError('Incorrect max');
      checkRange(service, min);
      checkRange(service, max);
      if (!SUBSCRIPTION_DELAYS.has(requireWhole(params.delay, 'Incorrect delay'))) throw new PanelError('Incorrect delay');
      if (params.posts !== undefined) requireWhole(params.posts, 'Incorrect posts');
      // The fake bills the first post up front at the top of the range.
      return { link: username, units: max, quantity: max };
    }
    const link = requireText(params.link, 'Incorrect link');
    switch (service.type) {
      case 'Package':
        return { link, units: 1000, quantity: 1 };
      case 'Custom Comments': {
        const quantity = lines(params.comments, 'Incorrect comments').length;
        checkRange(service, quantity);
        return { link, units: quantity, quantity };
      }
      case 'Mentions Custom List': {
        const quantity = lines(params.usernames, 'Incorrect usernames').length;
        checkRange(service, quantity);
        return { link, units: quantity, quantity };
      }
      default: {
        const quantity = requireWhole(params.quantity, 'Incorrect quantity');
        checkRange(service, quantity);
        if (service.type === 'Mentions with Hashtags') {
          lines(params.usernames, 'Incorrect usernames');
          lines(params.hashtags, 'Incorrect hashtags');
        }
        if (service.type === 'Mentions User Followers' || service.type === 'Comment Likes') requireText(params.username, 'Incorrect username');
        if (service.type === 'Mentions Media Likers') requireText(params.media, 'Incorrect media');
        if (service.type === 'Poll') requireWhole(params.answer_number, 'Incorrect answer number');
        if (params.runs !== undefined && params.runs !== '') {
          if (!service.dripfeed) throw new PanelError('Drip-feed is disabled for this service');
          const runs = requireWhole(params.runs, 'Incorrect runs');
          requireWhole(params.interval, 'Incorrect interval');
          if (runs < 1) throw new PanelError('Incorrect runs');
          return { link, units: quantity * runs, quantity: quantity * runs };
        }
        return { link, units: quantity, quantity };
      }
    }
  }

  function add(state: PanelState, params: Record<string, string>): { order: number } {
    const service = state.services.get(Number(params.service));
    if (!service || !/^\d+$/.test(params.service ?? '')) throw new PanelError('Incorrect service ID');
    const { link, units, quantity } = billedUnits(service, params);
    if (state.controls.mode === 'active_order') throw new PanelError(ACTIVE_ORDER_ERROR);
    const rateMicros = parseDecimal(service.rate, 6);
    const chargeMicros = roundCharge(ceilDiv(rateMicros * BigInt(units), 1000n));
    if (state.controls.mode === 'no_balance' || chargeMicros > state.balanceMicros) throw new PanelError('Not enough funds on balance');
    state.balanceMicros -= chargeMicros;
    const id = nextOrderId++;
    state.orders.set(id, {
      id,
      service,
      link,
      quantity,
      chargeMicros,
      createdAt: Date.now(),
      outcome: outcomeFor(state, id),
      startCount: 1000 + ((id * 7919) % 50_000),
      canceledAt: null,
      pinned: null,
      settled: false,
    });
    return { order: id };
  }

  function findOrder(state: PanelState, id: string): Order | undefined {
    return /^\d+$/.test(id.trim()) ? state.orders.get(Number(id.trim())) : undefined;
  }

  function idList(value: string | undefined): string[] {
    const ids = requireText(value, 'Incorrect request').split(',').map((id) => id.trim());
    if (ids.length > BATCH_LIMIT) throw new PanelError(`Maximum ${BATCH_LIMIT} IDs per request`);
    return ids;
  }

  function createRefill(state: PanelState, orderId: string): number {
    const order = findOrder(state, orderId);
    if (!order) throw new PanelError('Incorrect order ID');
    if (!order.service.refill) throw new PanelError('Refill is disabled for this service');
    const status = view(state, order).status.toLowerCase();
    if (status !== 'completed' && status !== 'partial') throw new PanelError('Order is not completed');
    const open = [...state.refills.values()].some((refill) => refill.orderId === order.id && refillStatus(state, refill) !== 'Completed');
    if (open) throw new PanelError('Refill request already exists');
    const id = nextRefillId++;
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

  function dispatch(state: PanelState, action: string, params: Record<string, string>): unknown {
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
        return add(state, params);
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
          return idList(params.orders).map((id) => ({ order: Number(id) || id, refill: perItem(() => createRefill(state, id)) }));
        }
        return { refill: String(createRefill(state, requireText(params.order, 'Incorrect order ID'))) };
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

  function api(state: PanelState, request: FakeRequest, response: ServerResponse): void {
    const params: Record<string, string> = Object.fromEntries(request.query);
    for (const [name, value] of Object.entries(readFields(request))) params[name] = String(value);
    const action = params.action ?? '';
    if (action === 'add') {
      const target = params.link ?? `username:${params.username ?? ''}`;
      state.addCallsByLink.set(target, (state.addCallsByLink.get(target) ?? 0) + 1);
    }
    const { mode } = state.controls;
    if (mode === 'timeout') return; // never answers; the connection is cut when the fake closes
    if (mode === 'garbage') return sendGarbage(response, 500);
    if (mode === 'fail') return sendJson(response, 200, { error: 'Service temporarily unavailable' });
    if (params.key !== options.apiKey) return sendJson(response, 200, { error: 'Invalid API key' });
    settle(state);
    let answer: unknown;
    try {
      answer = dispatch(state, action, params);
    } catch (error) {
      if (error instanceof PanelError) return sendJson(response, 200, { error: error.message });
      throw error;
    }
    // The order exists and was charged, but the caller never hears about it.
    if (mode === 'accept_then_timeout' && action === 'add') return;
    sendJson(response, 200, answer);
  }

  function control(state: PanelState, request: FakeRequest, response: ServerResponse): void {
    const fields = readFields(request);
    const { controls } = state;
    if (isOneOf(fields.mode, ['normal', 'fail', 'timeout', 'garbage', 'no_balance', 'active_order', 'accept_then_timeout'])) controls.mode = fields.mode;
    if (fields.forceOutcome === null || isOneOf(fields.forceOutcome, ['completed', 'partial', 'canceled'])) controls.forceOutcome = fields.forceOutcome;
    if (typeof fields.stepMs === 'number' && fields.stepMs > 0) controls.stepMs = fields.stepMs;
    if (isOneOf(fields.numberFormat, ['string', 'number'])) controls.numberFormat = fields.numberFormat;
    if (isOneOf(fields.refillStatusShape, ['array', 'object'])) controls.refillStatusShape = fields.refillStatusShape;
    if (typeof fields.balance === 'string') state.balanceMicros = parseDecimal(fields.balance, 6);
    const setRate = fields.setRate as { service?: unknown; rate?: unknown } | undefined;
    if (setRate && typeof setRate.rate === 'string') {
      const service = state.services.get(Number(setRate.service));
      if (!service) return sendJson(response, 404, { error: `No service ${String(setRate.service)}` });
      parseDecimal(setRate.rate, 6);
      // Orders already placed keep the service they were priced with.
      state.services.set(service.service, { ...service, rate: setRate.rate });
    }
    sendJson(response, 200, { controls, balance: formatScaled(state.balanceMicros, 6, 5) });
  }

  function listOrders(state: PanelState, response: ServerResponse): void {
    settle(state);
    const orders = [...state.orders.values()].map((order) => {
      const current = view(state, order);
      return {
        id: order.id,
        service: order.service.service,
        type: order.service.type,
        link: order.link,
        quantity: order.quantity,
        charge: formatScaled(current.chargeMicros, 6, 5),
        status: current.status,
        remains: current.remains,
        start_count: current.startCount,
        outcome: order.outcome,
        pinned: order.pinned !== null,
        createdAt: new Date(order.createdAt).toISOString(),
      };
    });
    sendJson(response, 200, {
      orders,
      addCallsByLink: Object.fromEntries(state.addCallsByLink),
      balance: formatScaled(state.balanceMicros, 6, 5),
    });
  }

  function pinOrder(state: PanelState, orderId: string, request: FakeRequest, response: ServerResponse): void {
    settle(state);
    const order = findOrder(state, orderId);
    if (!order) return sendJson(response, 404, { error: 'Incorrect order ID' });
    const fields = readFields(request);
    const current = view(state, order);
    order.pinned = {
      status: typeof fields.status === 'string' ? fields.status : current.status,
      remains: typeof fields.remains === 'number' ? fields.remains : current.remains,
      startCount: typeof fields.start_count === 'number' ? fields.start_count : current.startCount,
      chargeMicros: typeof fields.charge === 'string' ? parseDecimal(fields.charge, 6) : current.chargeMicros,
    };
    sendJson(response, 200, { order: { id: order.id, ...statusAnswer(state, order) } });
  }

  return startFakeServer(options.port ?? 0, (request, response, scope) => {
    const state = scopes.get(scope);
    const { method, path } = request;
    if ((method === 'POST' || method === 'GET') && (path === '/api/v2' || path === '/api/v2/')) return api(state, request, response);
    if (method === 'POST' && path === '/__control') return control(state, request, response);
    if (method === 'GET' && path === '/__orders') return listOrders(state, response);
    const pin = /^\/__orders\/(\d+)$/.exec(path);
    if (method === 'POST' && pin) return pinOrder(state, pin[1], request, response);
    if (method === 'POST' && path === '/__reset') {
      scopes.reset(scope);
      return sendJson(response, 200, { ok: true });
    }
    sendJson(response, 404, { error: 'Not found' });
  });
}
