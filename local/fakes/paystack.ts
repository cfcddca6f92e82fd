// A local Paystack: the parts of https://api.paystack.co this shop uses
// (initialize, verify, checkout redirect, signed charge.success webhooks),
// answering in Paystack's envelope {status, message, data} with its messages,
// plus test controls under /__* to make it slow, broken, lying or duplicated.

import { createHmac, randomBytes } from 'node:crypto';
import { formatScaled } from '../../worker/lib/decimal';
import {
  escapeHtml,
  isOneOf,
  readFields,
  redirect,
  Scopes,
  sendGarbage,
  sendHtml,
  sendJson,
  startFakeServer,
  type FakeRequest,
  type RunningFake,
} from './http';
import type { ServerResponse } from 'node:http';

export interface FakePaystackOptions {
  secretKey: string;
  port?: number;
  /** Where signed webhooks go (Paystack's dashboard "Webhook URL"); null keeps them in /__webhooks only. */
  webhookUrl?: string | null;
  /** Paystack's dashboard "Callback URL": used when initialize sends no callback_url. */
  defaultCallbackUrl?: string | null;
}

type TransactionStatus = 'abandoned' | 'success' | 'failed';
type WebhookMode = 'normal' | 'delay' | 'duplicate' | 'drop';
type VerifyMode = 'normal' | 'timeout' | 'garbage' | 'error';

interface Transaction {
  id: number;
  reference: string;
  accessCode: string;
  /** Kobo, a safe integer as on Paystack's wire. */
  amount: number;
  currency: string;
  email: string;
  callbackUrl: string | null;
  metadata: unknown;
  status: TransactionStatus;
  createdAt: string;
  paidAt: string | null;
  customerId: number;
}

interface WebhookRecord {
  id: number;
  event: string;
  reference: string;
  /** The exact bytes sent (UTF-8), so tests can replay or tamper with them. */
  body: string;
  signature: string;
  url: string | null;
  deliveries: Array<{ at: string; status: number | null; error: string | null }>;
}

interface Controls {
  webhookUrl: string | null;
  webhookMode: WebhookMode;
  webhookDelayMs: number;
  /** How many identical copies 'duplicate' sends. */
  webhookTimes: number;
  verifyMode: VerifyMode;
  /** One-shot lies for the next verify answer, to test the caller's tamper checks. */
  overrideAmount: number | null;
  overrideCurrency: string | null;
}

interface PaystackState {
  scope: string;
  transactions: Map<string, Transaction>;
  webhooks: WebhookRecord[];
  controls: Controls;
}

const SUPPORTED_CURRENCIES = new Set(['NGN', 'GHS', 'ZAR', 'KES', 'USD', 'XOF', 'EGP']);
/** Paystack: "Only -, ., = and alphanumeric characters allowed." */
const REFERENCE_PATTERN = /^[A-Za-z0-9.=-]+$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
const WEBHOOK_TIMEOUT_MS = 10_000;

export async function startFakePaystack(options: FakePaystackOptions): Promise<RunningFake> {
  const { secretKey } = options;
  let nextId = 4_099_260_000;
  const timers = new Set<NodeJS.Timeout>();
  /** Checkout links are global, like Paystack's: access code -> scope and reference. */
  const checkouts = new Map<string, { scope: string; reference: string }>();

  const defaultControls = (scope: string): Controls => ({
    // Only the root scope knows the app; test scopes read /__webhooks instead.
    webhookUrl: scope === '' ? (options.webhookUrl ?? null) : null,
    webhookMode: 'normal',
    webhookDelayMs: 3000,
    webhookTimes: 2,
    verifyMode: 'normal',
    overrideAmount: null,
    overrideCurrency: null,
  });
  const scopes = new Scopes<PaystackState>((scope) => ({ scope, transactions: new Map(), webhooks: [], controls: defaultControls(scope) }));

  function authorize(request: FakeRequest, response: ServerResponse): boolean {
    const header = String(request.headers.authorization ?? '');
    if (!/^Bearer\s+\S+/i.test(header)) {
      sendJson(response, 401, { status: false, message: 'Format is Authorization: Bearer [secret key]' });
      return false;
    }
    if (header.replace(/^Bearer\s+/i, '') !== secretKey) {
      sendJson(response, 401, { status: false, message: 'Invalid key' });
      return false;
    }
    return true;
  }

  function refuse(response: ServerResponse, status: number, message: string): void {
    sendJson(response, status, { status: false, message });
  }

  function initialize(state: PaystackState, request: FakeRequest, response: ServerResponse): void {
    const fields = readFields(request);
    const email = typeof fields.email === 'string' ? fields.email.trim() : '';
    if (!EMAIL_PATTERN.test(email)) return refuse(response, 400, 'Invalid Email Address Passed');
    const amountText = typeof fields.amount === 'number' ? String(fields.amount) : typeof fields.amount === 'string' ? fields.amount.trim() : '';
    if (!/^\d+$/.test(amountText) || !Number.isSafeInteger(Number(amountText)) || Number(amountText) <= 0) {
      return refuse(response, 400, 'Invalid Amount Sent');
    }
    const currency = typeof fields.currency === 'string' && fields.currency !== '' ? fields.currency.toUpperCase() : 'NGN';
    if (!SUPPORTED_CURRENCIES.has(currency)) return refuse(response, 403, 'Currency not supported by merchant');
    const reference = typeof fields.reference === 'string' && fields.reference !== '' ? fields.reference : randomBytes(5).toString('hex');
    if (!REFERENCE_PATTERN.test(reference)) {
      return refuse(response, 400, 'Invalid transaction reference. Only -, ., = and alphanumeric characters allowed.');
    }
    if (state.transactions.has(reference)) return refuse(response, 400, 'Duplicate Transaction Reference');
    const callbackUrl = typeof fields.callback_url === 'string' && fields.callback_url !== '' ? fields.callback_url : (options.defaultCallbackUrl ?? null);
    if (callbackUrl !== null && !/^https?:\/\//i.test(callbackUrl)) return refuse(response, 400, 'Invalid callback_url');

    const accessCode = randomBytes(8).toString('hex').slice(0, 15);
    const id = nextId++;
    state.transactions.set(reference, {
      id,
      reference,
      accessCode,
      amount: Number(amountText),
      currency,
      email,
      callbackUrl,
      metadata: typeof fields.metadata === 'string' ? safeJson(fields.metadata) : (fields.metadata ?? null),
      status: 'abandoned',
      createdAt: new Date().toISOString(),
      paidAt: null,
      customerId: 90_000_000 + (id % 10_000_000),
    });
    checkouts.set(accessCode, { scope: state.scope, reference });
    sendJson(response, 200, {
      status: true,
      message: 'Authorization URL created',
      data: { authorization_url: `${request.scopeUrl}/checkout/${accessCode}`, access_code: accessCode, reference },
    });
  }

  function verifyData(transaction: Transaction, controls: Controls) {
    const amount = controls.overrideAmount ?? transaction.amount;
    const currency = controls.overrideCurrency ?? transaction.currency;
    controls.overrideAmount = null;
    controls.overrideCurrency = null;
    const gatewayResponse = { abandoned: 'The transaction was not completed', success: 'Successful', failed: 'Declined' }[transaction.status];
    return {
      id: transaction.id,
      domain: 'test',
      status: transaction.status,
      reference: transaction.reference,
      receipt_number: null,
      amount,
      message: null,
      gateway_response: gatewayResponse,
      paid_at: transaction.paidAt,
      created_at: transaction.createdAt,
      channel: 'card',
      currency,
      ip_address: '127.0.0.1',
      metadata: transaction.metadata ?? '',
      fees: transaction.status === 'success' ? Math.min(Math.floor(transaction.amount * 0.015) + (transaction.amount >= 250_000 ? 10_000 : 0), 200_000) : null,
      customer: { id: transaction.customerId, email: transaction.email, customer_code: `CUS_${transaction.customerId.toString(36)}` },
      authorization:
        transaction.status === 'abandoned'
          ? {}
          : { authorization_code: `AUTH_${transaction.accessCode.slice(0, 10)}`, bin: '408408', last4: '4081', exp_month: '12', exp_year: '2030', channel: 'card', card_type: 'visa', bank: 'TEST BANK', country_code: 'NG', brand: 'visa', reusable: true },
      requested_amount: transaction.amount,
    };
  }

  function verify(state: PaystackState, reference: string, response: ServerResponse): void {
    const { controls } = state;
    if (controls.verifyMode === 'timeout') return; // never answers; the connection is cut when the fake closes
    if (controls.verifyMode === 'garbage') return sendGarbage(response, 502);
    if (controls.verifyMode === 'error') return sendJson(response, 500, { status: false, message: 'An error occurred, please try again' });
    const transaction = state.transactions.get(reference);
    if (!transaction) {
      return sendJson(response, 400, {
        status: false,
        message: 'Transaction reference not found',
        meta: { nextStep: 'Ensure that you are passing the reference of a transaction that exists on this integration' },
        type: 'validation_error',
        code: 'transaction_not_found',
      });
    }
    sendJson(response, 200, { status: true, message: 'Verification successful', data: verifyData(transaction, controls) });
  }

  /** Marks a transaction paid or declined once; a paid one sends charge.success as Paystack does. */
  async function complete(state: PaystackState, transaction: Transaction, outcome: 'success' | 'failed'): Promise<boolean> {
    if (transaction.status !== 'abandoned') return false;
    transaction.status = outcome;
    transaction.paidAt = outcome === 'success' ? new Date().toISOString() : null;
    if (outcome === 'success') await emitChargeSuccess(state, transaction);
    return true;
  }

  async function emitChargeSuccess(state: PaystackState, transaction: Transaction): Promise<void> {
    const { controls } = state;
    const body = JSON.stringify({
      event: 'charge.success',
      data: {
        id: transaction.id,
        domain: 'test',
        status: 'success',
        reference: transaction.reference,
        amount: transaction.amount,
        message: null,
        gateway_response: 'Successful',
        paid_at: transaction.paidAt,
        created_at: transaction.createdAt,
        channel: 'card',
        currency: transaction.currency,
        ip_address: '127.0.0.1',
        metadata: transaction.metadata ?? '',
        customer: { id: transaction.customerId, email: transaction.email, customer_code: `CUS_${transaction.customerId.toString(36)}` },
      },
    });
    const record: WebhookRecord = {
      id: state.webhooks.length + 1,
      event: 'charge.success',
      reference: transaction.reference,
      body,
      signature: createHmac('sha512', secretKey).update(body, 'utf8').digest('hex'),
      url: controls.webhookUrl,
      deliveries: [],
    };
    state.webhooks.push(record);
    if (record.url === null || controls.webhookMode === 'drop') return;
    if (controls.webhookMode === 'delay') {
      const timer = setTimeout(() => {
        timers.delete(timer);
        void deliver(record);
      }, controls.webhookDelayMs);
      timers.add(timer);
      return;
    }
    const copies = controls.webhookMode === 'duplicate' ? Math.max(1, controls.webhookTimes) : 1;
    for (let copy = 0; copy < copies; copy++) await deliver(record);
  }

  async function deliver(record: WebhookRecord): Promise<void> {
    if (record.url === null) return;
    const at = new Date().toISOString();
    try {
      const answer = await fetch(record.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paystack-signature': record.signature, 'user-agent': 'Paystack-Webhook (fake)' },
        body: record.body,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      await answer.arrayBuffer();
      record.deliveries.push({ at, status: answer.status, error: null });
    } catch (error) {
      record.deliveries.push({ at, status: null, error: error instanceof Error ? error.message : String(error) });
    }
  }

  function callbackLocation(transaction: Transaction): string | null {
    if (transaction.callbackUrl === null) return null;
    const target = new URL(transaction.callbackUrl);
    target.searchParams.set('trxref', transaction.reference);
    target.searchParams.set('reference', transaction.reference);
    return target.toString();
  }

  async function checkout(request: FakeRequest, response: ServerResponse, accessCode: string): Promise<void> {
    const entry = checkouts.get(accessCode);
    const state = entry ? scopes.get(entry.scope) : undefined;
    const transaction = entry && state ? state.transactions.get(entry.reference) : undefined;
    if (!state || !transaction) return sendHtml(response, 404, checkoutPage({ title: 'Invalid checkout link', body: '<p>This payment link does not exist or has expired.</p>' }));

    if (request.method === 'POST') {
      const outcome = readFields(request).outcome === 'success' ? 'success' : 'failed';
      await complete(state, transaction, outcome);
      const location = callbackLocation(transaction);
      if (location) return redirect(response, location);
      return sendHtml(response, 200, checkoutPage({ title: outcome === 'success' ? 'Payment successful' : 'Payment declined', body: `<p>Reference <code>${escapeHtml(transaction.reference)}</code>. You can close this page.</p>` }));
    }

    if (transaction.status !== 'abandoned') {
      const location = callbackLocation(transaction);
      const back = location ? `<p><a class="link" href="${escapeHtml(location)}">Return to merchant</a></p>` : '';
      return sendHtml(response, 200, checkoutPage({ title: 'Transaction already processed', body: `<p>This payment was already ${transaction.status === 'success' ? 'completed' : 'declined'}.</p>${back}` }));
    }
    sendHtml(
      response,
      200,
      checkoutPage({
        title: 'Pay with card',
        body: `
          <p class="email">${escapeHtml(transaction.email)}</p>
          <p class="amount">Pay <strong>${transaction.currency} ${formatAmount(transaction.amount)}</strong></p>
          <div class="card-hint">Test card 4084 0840 8408 4081 · any future date · CVV 408</div>
          <form method="post"><input type="hidden" name="outcome" value="success"><button class="pay" type="submit">Pay ${transaction.currency} ${formatAmount(transaction.amount)}</button></form>
          <form method="post"><input type="hidden" name="outcome" value="failed"><button class="decline" type="submit">Decline</button></form>
          <p class="ref">Reference: ${escapeHtml(transaction.reference)}</p>`,
      }),
    );
  }

  async function control(state: PaystackState, request: FakeRequest, response: ServerResponse): Promise<void> {
    const fields = readFields(request);
    const { controls } = state;
    if (fields.webhookUrl !== undefined) controls.webhookUrl = typeof fields.webhookUrl === 'string' && fields.webhookUrl !== '' ? fields.webhookUrl : null;
    if (isOneOf(fields.webhookMode, ['normal', 'delay', 'duplicate', 'drop'])) controls.webhookMode = fields.webhookMode;
    if (typeof fields.webhookDelayMs === 'number') controls.webhookDelayMs = fields.webhookDelayMs;
    if (typeof fields.webhookTimes === 'number') controls.webhookTimes = fields.webhookTimes;
    if (isOneOf(fields.verifyMode, ['normal', 'timeout', 'garbage', 'error'])) controls.verifyMode = fields.verifyMode;
    if (fields.overrideAmount !== undefined) controls.overrideAmount = typeof fields.overrideAmount === 'number' ? fields.overrideAmount : null;
    if (fields.overrideCurrency !== undefined) controls.overrideCurrency = typeof fields.overrideCurrency === 'string' ? fields.overrideCurrency : null;
    sendJson(response, 200, { controls });
  }

  async function completeByApi(state: PaystackState, request: FakeRequest, response: ServerResponse): Promise<void> {
    const fields = readFields(request);
    const transaction = typeof fields.reference === 'string' ? state.transactions.get(fields.reference) : undefined;
    if (!transaction) return sendJson(response, 404, { error: 'No such transaction' });
    if (fields.outcome !== 'success' && fields.outcome !== 'failed') return sendJson(response, 400, { error: 'outcome must be "success" or "failed"' });
    const changed = await complete(state, transaction, fields.outcome);
    sendJson(response, 200, { changed, status: transaction.status, callbackLocation: callbackLocation(transaction) });
  }

  return startFakeServer(
    options.port ?? 0,
    async (request, response, scope) => {
      const state = scopes.get(scope);
      const { method, path } = request;
      if (method === 'POST' && path === '/transaction/initialize') {
        if (authorize(request, response)) initialize(state, request, response);
        return;
      }
      const verifyMatch = /^\/transaction\/verify\/([^/]*)$/.exec(path);
      if (method === 'GET' && verifyMatch) {
        if (authorize(request, response)) verify(state, decodeURIComponent(verifyMatch[1]), response);
        return;
      }
      const checkoutMatch = /^\/checkout\/([a-z0-9]+)$/.exec(path);
      if ((method === 'GET' || method === 'POST') && checkoutMatch) return checkout(request, response, checkoutMatch[1]);
      if (method === 'POST' && path === '/__control') return control(state, request, response);
      if (method === 'POST' && path === '/__complete') return completeByApi(state, request, response);
      if (method === 'GET' && path === '/__webhooks') return sendJson(response, 200, { webhooks: state.webhooks });
      if (method === 'POST' && path === '/__reset') {
        scopes.reset(scope);
        return sendJson(response, 200, { ok: true });
      }
      sendJson(response, 404, { status: false, message: 'Route not found' });
    },
    () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Kobo as naira with thousands separators: 123456789 -> "1,234,567.89". */
function formatAmount(kobo: number): string {
  const [whole, fraction] = formatScaled(BigInt(kobo), 2, 2).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

function checkoutPage({ title, body }: { title: string; body: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Paystack sandbox</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f3f5f8; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b2733; }
  main { width: min(380px, 92vw); background: #fff; border-radius: 12px; box-shadow: 0 8px 30px rgba(20, 40, 70, .12); padding: 28px; }
  .badge { display: inline-block; font-size: 12px; font-weight: 600; letter-spacing: .04em; text-transform: uppercase; color: #0b7a4b; background: #e3f7ee; border-radius: 999px; padding: 3px 10px; }
  h1 { font-size: 20px; margin: 14px 0 6px; }
  .email { color: #5b6b7b; margin: 0; }
  .amount { font-size: 17px; margin: 6px 0 18px; }
  .card-hint { font-size: 13px; color: #5b6b7b; background: #f7f9fb; border: 1px dashed #cfd8e3; border-radius: 8px; padding: 8px 10px; margin-bottom: 18px; }
  form { margin: 0 0 10px; }
  button { width: 100%; border: 0; border-radius: 8px; padding: 12px; font-size: 15px; font-weight: 600; cursor: pointer; }
  .pay { background: #0ba4db; color: #fff; }
  .pay:hover { background: #0993c4; }
  .decline { background: #fff; color: #c0392b; border: 1px solid #e6b0aa; }
  .ref { font-size: 12px; color: #8a99a8; margin: 14px 0 0; word-break: break-all; }
  .link { color: #0ba4db; }
</style></head>
<body><main><span class="badge">Paystack sandbox</span><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}
