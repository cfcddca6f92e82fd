// A local SMM panel speaking the "API v2" protocol (PerfectPanel style) at
// /api/v2: form-encoded POST (or GET query) with key + action, JSON answers,
// errors as HTTP 200 {"error": "..."}, numbers as strings. Orders move through
// Pending -> In progress -> Completed / Partial / Canceled as time passes
// (smm-orders.ts; the actions in smm-panel-actions.ts), and test controls under /__* break it in the ways real panels
// break: whole-panel modes, and per-call or per-order switches (smm-faults.ts),
// with a "rough" preset that mixes them at low rates. Switched on, it also sends signed order.status
// webhooks as a shop like ours does (smm-webhooks.ts).

import type { ServerResponse } from 'node:http';
import { formatScaled, parseDecimal } from '../../worker/lib/decimal';
import { type FakeRequest, isOneOf, type RunningFake, readFields, Scopes, sendGarbage, sendHtml, sendJson, startFakeServer } from './http';
import { catalogue } from './smm-catalogue';
import { type FaultPreset, Faults } from './smm-faults';
import { PanelError } from './smm-orders';
import { dispatch, findOrder, MODES, type PanelIds, type PanelState, plainStatus, settle, view } from './smm-panel-actions';
import { PanelWebhooks } from './smm-webhooks';

export interface FakeSmmProviderOptions {
  apiKey: string;
  port?: number;
  /** Milliseconds per progress step; an order finishes after 3 steps. */
  stepMs?: number;
  /** Starting balance in USD, as decimal text. */
  balance?: string;
  /** The switches every copy of the panel starts with: 'rough' is what operators meet in the field. */
  preset?: FaultPreset;
  /** Seed of the switches' random source. */
  seed?: number;
}

/** How often the panel looks for status changes to send webhooks about (orders move as time passes, not on calls). */
const WEBHOOK_TICK_MS = 200;

function maintenancePage(response: ServerResponse): void {
  sendHtml(
    response,
    200,
    '<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>We&#39;ll be back soon!</h1><p>The panel is being upgraded.</p></body></html>',
  );
}

export async function startFakeSmmProvider(options: FakeSmmProviderOptions): Promise<RunningFake> {
  const startingBalance = parseDecimal(options.balance ?? '5000.00', 6);
  // Ids never repeat across restarts, as on a real panel: the shop keeps provider order ids unique.
  const ids: PanelIds = { nextOrderId: Math.floor(Date.now() / 1000) * 10, nextRefillId: Math.floor(Date.now() / 1000) };
  const lateAnswers = new Set<NodeJS.Timeout>();

  const scopes = new Scopes<PanelState>(() => ({
    services: new Map(catalogue().map((service) => [service.service, service])),
    balanceMicros: startingBalance,
    orders: new Map(),
    refills: new Map(),
    addCallsByLink: new Map(),
    addRefusalsByLink: new Map(),
    controls: { mode: 'normal', forceOutcome: null, stepMs: options.stepMs ?? 4000, numberFormat: 'string', refillStatusShape: 'array' },
    faults: new Faults(options.preset ?? 'calm', options.seed ?? 1),
    webhooks: new PanelWebhooks(),
  }));
  /** Scopes with webhooks on; their orders' changes are looked for every tick. */
  const watched = new Set<PanelState>();
  const webhookTicker = setInterval(() => {
    for (const state of watched) for (const order of state.orders.values()) state.webhooks.notice(order.id, plainStatus(state, order));
  }, WEBHOOK_TICK_MS);
  webhookTicker.unref();

  /** Answers after `delayMs`; by then the caller may have given up, which is the point. */
  function answerLate(response: ServerResponse, delayMs: number, body: unknown): void {
    const timer = setTimeout(() => {
      lateAnswers.delete(timer);
      if (!response.destroyed && !response.writableEnded) sendJson(response, 200, body);
    }, delayMs);
    timer.unref();
    lateAnswers.add(timer);
  }

  /** Panel order ids a call is about, for switches aimed at given orders. */
  function orderIdsOf(params: Record<string, string>): number[] {
    return (params.orders ?? params.order ?? '')
      .split(',')
      .map(Number)
      .filter((id) => Number.isSafeInteger(id) && id > 0);
  }

  function api(state: PanelState, request: FakeRequest, response: ServerResponse): void {
    const params: Record<string, string> = Object.fromEntries(request.query);
    for (const [name, value] of Object.entries(readFields(request))) params[name] = String(value);
    const action = params.action ?? '';
    const target = params.link ?? `username:${params.username ?? ''}`;
    if (action === 'add') state.addCallsByLink.set(target, (state.addCallsByLink.get(target) ?? 0) + 1);
    const refuse = (message: string) => {
      if (action === 'add') state.addRefusalsByLink.set(target, (state.addRefusalsByLink.get(target) ?? 0) + 1);
      sendJson(response, 200, { error: message });
    };
    const { mode } = state.controls;
    if (mode === 'timeout') return; // never answers; the connection is cut when the fake closes
    if (mode === 'garbage') return sendGarbage(response, 500);
    if (mode === 'fail') return refuse('Service temporarily unavailable');
    const { faults } = state;
    const orderIds = orderIdsOf(params);
    if (faults.hits('badGateway', action, orderIds)) return sendGarbage(response, 502);
    if (faults.hits('html200', action, orderIds)) return maintenancePage(response);
    if (params.key !== options.apiKey) return refuse('Invalid API key');
    settle(state);
    let answer: unknown;
    try {
      answer = dispatch(state, ids, action, params);
    } catch (error) {
      if (error instanceof PanelError) return refuse(error.message);
      throw error;
    }
    // The order exists and was charged, but the caller never hears about it in time.
    if (action === 'add' && mode === 'accept_then_timeout') return;
    if (action === 'add' && faults.hits('acceptThenTimeout', action)) return answerLate(response, faults.delayOf('acceptThenTimeout'), answer);
    if (faults.hits('slow', action, orderIds)) return answerLate(response, faults.delayOf('slow'), answer);
    sendJson(response, 200, answer);
  }

  function control(state: PanelState, request: FakeRequest, response: ServerResponse): void {
    const fields = readFields(request);
    const { controls } = state;
    if (isOneOf(fields.mode, MODES)) controls.mode = fields.mode;
    if (fields.forceOutcome === null || isOneOf(fields.forceOutcome, ['completed', 'partial', 'canceled'])) controls.forceOutcome = fields.forceOutcome;
    if (typeof fields.stepMs === 'number' && fields.stepMs > 0) controls.stepMs = fields.stepMs;
    if (isOneOf(fields.numberFormat, ['string', 'number'])) controls.numberFormat = fields.numberFormat;
    if (isOneOf(fields.refillStatusShape, ['array', 'object'])) controls.refillStatusShape = fields.refillStatusShape;
    if (typeof fields.balance === 'string') state.balanceMicros = parseDecimal(fields.balance, 6);
    const refused = state.faults.control(fields) ?? state.webhooks.configure(fields.webhook);
    if (refused !== null) return sendJson(response, 400, { error: refused });
    if (state.webhooks.target) watched.add(state);
    else watched.delete(state);
    const setRate = fields.setRate as { service?: unknown; rate?: unknown } | undefined;
    if (setRate && typeof setRate.rate === 'string') {
      const service = state.services.get(Number(setRate.service));
      if (!service) return sendJson(response, 404, { error: `No service ${String(setRate.service)}` });
      parseDecimal(setRate.rate, 6);
      // Orders already placed keep the service they were priced with.
      state.services.set(service.service, { ...service, rate: setRate.rate });
    }
    sendJson(response, 200, {
      controls,
      faults: state.faults.switches,
      seed: state.faults.seed,
      balance: formatScaled(state.balanceMicros, 6, 5),
      webhook: state.webhooks.target?.url ?? null,
    });
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
        done: current.chunksDone,
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

  /**
   * `add` calls per link (per `username:<name>` for subscriptions), counted as they arrive: `calls`
   * all of them, `unrefused` those not answered with a refusal ({"error"}, which certainly placed no
   * order), so whoever sent them could not know there was no order. Only links with at least `min`
   * unrefused calls (1 by default) are listed, and the panel's orders for the links asked with
   * `links` (comma-separated): a check stays cheap as orders pile up.
   */
  function listAdds(state: PanelState, request: FakeRequest, response: ServerResponse): void {
    const min = Math.max(1, Number(request.query.get('min') ?? '1') || 1);
    const asked = new Set((request.query.get('links') ?? '').split(',').filter((link) => link !== ''));
    const listed = [...state.addCallsByLink]
      .map(([link, calls]) => ({ link, calls, unrefused: calls - (state.addRefusalsByLink.get(link) ?? 0) }))
      .filter(({ link, unrefused }) => unrefused >= min || asked.has(link));
    const orders =
      asked.size === 0
        ? []
        : [...state.orders.values()]
            .filter((order) => asked.has(order.kind === 'subscription' ? `username:${order.link}` : order.link))
            .map((order) => ({ id: order.id, link: order.kind === 'subscription' ? `username:${order.link}` : order.link }));
    sendJson(response, 200, { adds: Object.fromEntries(listed.map(({ link, ...counts }) => [link, counts])), orders });
  }

  /** Fixes an order's status answer: the fields given replace the current ones, and a field given as null is left out. */
  function pinOrder(state: PanelState, orderId: string, request: FakeRequest, response: ServerResponse): void {
    settle(state);
    const order = findOrder(state, orderId);
    if (!order) return sendJson(response, 404, { error: 'Incorrect order ID' });
    const pinned = plainStatus(state, order);
    for (const [name, value] of Object.entries(readFields(request))) {
      if (value === null) delete pinned[name];
      else pinned[name] = value;
    }
    order.pinned = pinned;
    sendJson(response, 200, { order: { id: order.id, ...pinned } });
  }

  const clearLateAnswers = () => {
    for (const timer of lateAnswers) clearTimeout(timer);
    clearInterval(webhookTicker);
  };
  return startFakeServer(
    options.port ?? 0,
    (request, response, scope) => {
      const state = scopes.get(scope);
      const { method, path } = request;
      if ((method === 'POST' || method === 'GET') && (path === '/api/v2' || path === '/api/v2/')) return api(state, request, response);
      if (method === 'POST' && path === '/__control') return control(state, request, response);
      if (method === 'GET' && path === '/__orders') return listOrders(state, response);
      if (method === 'GET' && path === '/__adds') return listAdds(state, request, response);
      if (method === 'GET' && path === '/__webhooks') return sendJson(response, 200, { webhooks: state.webhooks.log });
      const pin = /^\/__orders\/(\d+)$/.exec(path);
      if (method === 'POST' && pin) return pinOrder(state, pin[1], request, response);
      if (method === 'POST' && path === '/__reset') {
        watched.delete(state);
        scopes.reset(scope);
        return sendJson(response, 200, { ok: true });
      }
      sendJson(response, 404, { error: 'Not found' });
    },
    clearLateAnswers,
  );
}
