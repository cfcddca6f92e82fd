// A local Flutterwave: the parts of its v3 API (https://developer.flutterwave.com/v3.0/docs)
// this shop uses. Standard checkout (POST /v3/payments answers a hosted link), the hosted
// payment page, the redirect back with status, tx_ref and transaction_id, verification by
// transaction id and by tx_ref, wallet balances (a key's check), and charge.completed webhooks
// carrying the dashboard's secret hash in `verif-hash`, all in Flutterwave's envelope
// {status: "success" | "error", message, data}.
// As on Flutterwave, a key sees only its own world (FLWSECK_TEST-… test, FLWSECK-… live), and
// sandbox charges go through the mock processor, whose references start "FLW-MOCK-".
// GET /__webhooks shows every event sent; POST /__refund, /__chargeback and /__chargeback/resolve
// reverse a paid transaction (flutterwave-reversals.ts); each /__scope/<name> is an independent copy.
//
// A test pays or declines as the payer does, by posting the hosted page (POST /v3/hosted/pay/<code>,
// form or JSON) {outcome: "success" | "failed", card?}. `card` is any text naming the card paid with: the
// transaction's `card` (first_6digits, last_4digits, expiry, as Flutterwave reports a card) is the same for
// the same `card` and differs for different ones. Without it the card is the payer's email's (lower-cased),
// so each email has its own card.

import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { nairaToKobo } from '../../worker/lib/decimal';
import { alreadyProcessedPage, type CheckoutBrand, checkoutPage, paymentForm } from './checkout';
import { flutterwaveReversals, type ReversalState } from './flutterwave-reversals';
import { type FakeRequest, type RunningFake, readFields, redirect, Scopes, sendHtml, sendJson } from './http';
import { CheckoutLinks, type Domain, domainsOfKeys, servePaymentFake, testCard } from './payment-fake';
import { defaultWebhookControls, type WebhookControls, type WebhookRecord, webhookSender } from './webhooks';

export interface FakeFlutterwaveOptions {
  /** The test secret key (FLWSECK_TEST-…). */
  secretKey: string;
  /** A live secret key (FLWSECK-…): its payments are live ones. */
  liveSecretKey?: string;
  /** The dashboard's webhook "Secret hash", sent as-is in every webhook's verif-hash header. */
  secretHash: string;
  port?: number;
  /** The dashboard's webhook URL; null keeps events in /__webhooks only. */
  webhookUrl?: string | null;
}

/** A payment started with POST /v3/payments; it becomes a transaction when the payer pays or is declined. */
interface Payment {
  txRef: string;
  domain: Domain;
  amountKobo: number;
  currency: string;
  email: string;
  name: string | null;
  redirectUrl: string;
  meta: unknown;
  transactionId: number | null;
}

interface Transaction {
  id: number;
  txRef: string;
  flwRef: string;
  domain: Domain;
  amountKobo: number;
  currency: string;
  email: string;
  name: string | null;
  meta: unknown;
  status: 'successful' | 'failed';
  createdAt: string;
  customerId: number;
  reversedKobo: number;
  /** The name of the card paid with (the payer's `card`, else their email). */
  card: string;
}

interface FlutterwaveState extends ReversalState<Transaction> {
  scope: string;
  payments: Map<string, Payment>;
  webhooks: WebhookRecord[];
  controls: WebhookControls;
}

const SUPPORTED_CURRENCIES = new Set(['NGN', 'USD', 'GHS', 'KES', 'ZAR', 'UGX', 'TZS', 'RWF', 'XAF', 'XOF', 'EUR', 'GBP']);
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
const NOT_FOUND = 'No transaction was found for this id';
const BRAND: CheckoutBrand = { name: 'Flutterwave', accent: '#f5a623', testCard: 'Test card 5531 8866 5214 2950 · 09/32 · CVV 564 · PIN 3310 · OTP 12345' };

/** The card named `name` as Flutterwave reports one: truncated to its first six and last four digits, with its expiry. */
function cardView(name: string) {
  const card = testCard(name);
  const mastercard = card.bin.startsWith('5');
  return {
    first_6digits: card.bin,
    last_4digits: card.last4,
    issuer: mastercard ? 'MASTERCARD CREDIT' : 'VISA DEBIT',
    country: 'NG',
    type: mastercard ? 'MASTERCARD' : 'VISA',
    expiry: `${card.expMonth}/${card.expYear.slice(-2)}`,
  };
}

export async function startFakeFlutterwave(options: FakeFlutterwaveOptions): Promise<RunningFake> {
  const domainOfKey = domainsOfKeys(options);
  let nextId = 288_200_000;
  const webhooks = webhookSender({ signatureHeader: 'verif-hash', userAgent: 'Flutterwave-Webhook (fake)' });
  const scopes = new Scopes<FlutterwaveState>((scope) => ({
    scope,
    payments: new Map(),
    transactions: new Map(),
    chargebacks: new Map(),
    webhooks: [],
    // Only the root scope knows the app; test scopes read /__webhooks instead.
    controls: defaultWebhookControls(scope === '' ? (options.webhookUrl ?? null) : null),
  }));
  /** Hosted links: code -> the payment's tx_ref in its scope. */
  const hosted = new CheckoutLinks(scopes, (state: FlutterwaveState, txRef: string) => state.payments.get(txRef));

  function refuse(response: ServerResponse, status: number, message: string): void {
    sendJson(response, status, { status: 'error', message, data: null });
  }

  /** Answers with `handle`, given the domain of the request's key; 401 when it carries none of ours. */
  function withKey(request: FakeRequest, response: ServerResponse, handle: (domain: Domain) => void): void {
    const key = /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
    const domain = key === undefined ? undefined : domainOfKey.get(key);
    if (!domain) return refuse(response, 401, 'Invalid authorization key');
    handle(domain);
  }

  function readKobo(value: unknown): number | null {
    if (typeof value !== 'number' && typeof value !== 'string') return null;
    try {
      const kobo = nairaToKobo(value);
      return kobo > 0n && kobo <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(kobo) : null;
    } catch {
      return null;
    }
  }

  function initialize(state: FlutterwaveState, domain: Domain, request: FakeRequest, response: ServerResponse): void {
    const fields = readFields(request);
    const txRef = typeof fields.tx_ref === 'string' ? fields.tx_ref.trim() : '';
    if (txRef === '') return refuse(response, 400, 'tx_ref is required');
    const amountKobo = readKobo(fields.amount);
    if (amountKobo === null) return refuse(response, 400, 'amount must be a positive number with at most 2 decimal places');
    const currency = typeof fields.currency === 'string' && fields.currency !== '' ? fields.currency.toUpperCase() : 'NGN';
    if (!SUPPORTED_CURRENCIES.has(currency)) return refuse(response, 400, 'Invalid currency provided');
    const redirectUrl = typeof fields.redirect_url === 'string' ? fields.redirect_url : '';
    if (!/^https?:\/\//i.test(redirectUrl)) return refuse(response, 400, 'redirect_url is required');
    const customer = typeof fields.customer === 'object' && fields.customer !== null ? (fields.customer as Record<string, unknown>) : {};
    const email = typeof customer.email === 'string' ? customer.email.trim() : '';
    if (!EMAIL_PATTERN.test(email)) return refuse(response, 400, 'customer.email is required and must be a valid email');
    if (state.payments.has(txRef)) return refuse(response, 400, 'A payment with this tx_ref already exists');

    const code = randomBytes(9).toString('hex');
    state.payments.set(txRef, {
      txRef,
      domain,
      amountKobo,
      currency,
      email,
      name: typeof customer.name === 'string' ? customer.name : null,
      redirectUrl,
      meta: fields.meta ?? null,
      transactionId: null,
    });
    hosted.add(code, state.scope, txRef);
    sendJson(response, 200, { status: 'success', message: 'Hosted Link', data: { link: `${request.scopeUrl}/v3/hosted/pay/${code}` } });
  }

  function transactionData(transaction: Transaction) {
    const amount = transaction.amountKobo / 100;
    const fee = Math.round(transaction.amountKobo * 0.014) / 100;
    return {
      id: transaction.id,
      tx_ref: transaction.txRef,
      flw_ref: transaction.flwRef,
      device_fingerprint: 'N/A',
      amount,
      currency: transaction.currency,
      charged_amount: amount,
      app_fee: fee,
      merchant_fee: 0,
      processor_response: transaction.status === 'successful' ? 'Approved. Successful' : 'Declined',
      auth_model: 'PIN',
      ip: '127.0.0.1',
      narration: 'CARD Transaction ',
      status: transaction.status,
      payment_type: 'card',
      created_at: transaction.createdAt,
      account_id: 20937,
      card: cardView(transaction.card),
      meta: transaction.meta,
      amount_settled: transaction.status === 'successful' ? Math.round((amount - fee) * 100) / 100 : 0,
      customer: {
        id: transaction.customerId,
        name: transaction.name ?? 'Anonymous customer',
        phone_number: null,
        email: transaction.email,
        created_at: transaction.createdAt,
      },
    };
  }

  function answerTransaction(response: ServerResponse, domain: Domain, transaction: Transaction | undefined): void {
    // A key never sees the other world's transactions.
    if (!transaction || transaction.domain !== domain) return refuse(response, 400, NOT_FOUND);
    sendJson(response, 200, { status: 'success', message: 'Transaction fetched successfully', data: transactionData(transaction) });
  }

  /** GET /v3/balances: one wallet per currency, holding the world's successful charges less what was reversed. */
  function balances(state: FlutterwaveState, domain: Domain, response: ServerResponse): void {
    const kobo = new Map<string, number>([['NGN', 0]]);
    for (const transaction of state.transactions.values()) {
      if (transaction.domain !== domain || transaction.status !== 'successful') continue;
      kobo.set(transaction.currency, (kobo.get(transaction.currency) ?? 0) + transaction.amountKobo - transaction.reversedKobo);
    }
    const data = [...kobo].map(([currency, amount]) => ({ currency, available_balance: amount / 100, ledger_balance: amount / 100 }));
    sendJson(response, 200, { status: 'success', message: 'Wallet balances fetched', data });
  }

  /** The payer paid or was declined with the card named `card`: the payment becomes a transaction, and Flutterwave tells the merchant either way. */
  async function charge(state: FlutterwaveState, payment: Payment, outcome: 'successful' | 'failed', card: string): Promise<Transaction> {
    const id = nextId++;
    const transaction: Transaction = {
      id,
      txRef: payment.txRef,
      flwRef: payment.domain === 'test' ? `FLW-MOCK-${randomBytes(16).toString('hex')}` : `FLW${String(id).padStart(12, '0')}`,
      domain: payment.domain,
      amountKobo: payment.amountKobo,
      currency: payment.currency,
      email: payment.email,
      name: payment.name,
      meta: payment.meta,
      status: outcome,
      createdAt: new Date().toISOString(),
      customerId: 1_400_000 + (id % 100_000),
      reversedKobo: 0,
      card,
    };
    state.transactions.set(id, transaction);
    payment.transactionId = id;
    const body = JSON.stringify({ event: 'charge.completed', data: transactionData(transaction), 'event.type': 'CARD_TRANSACTION' });
    await webhooks.send(state.webhooks, state.controls, { event: 'charge.completed', reference: payment.txRef, body, signature: options.secretHash });
    return transaction;
  }

  function redirectLocation(payment: Payment, transaction: Transaction): string {
    const target = new URL(payment.redirectUrl);
    target.searchParams.set('status', transaction.status);
    target.searchParams.set('tx_ref', payment.txRef);
    target.searchParams.set('transaction_id', String(transaction.id));
    return target.toString();
  }

  async function checkout(request: FakeRequest, response: ServerResponse, code: string): Promise<void> {
    const opened = hosted.open(code);
    if (!opened)
      return sendHtml(response, 404, checkoutPage(BRAND, { title: 'Invalid payment link', body: '<p>This payment link does not exist or has expired.</p>' }));
    const { state, payment } = opened;
    const done = payment.transactionId === null ? undefined : state.transactions.get(payment.transactionId);

    if (request.method === 'POST' && !done) {
      const fields = readFields(request);
      const named = typeof fields.card === 'string' && fields.card !== '' && fields.card.length <= 200 ? fields.card : null;
      if (fields.card !== undefined && fields.card !== '' && named === null) return refuse(response, 400, 'card must be text of 1 to 200 characters');
      const transaction = await charge(state, payment, fields.outcome === 'success' ? 'successful' : 'failed', named ?? payment.email.toLowerCase());
      return redirect(response, redirectLocation(payment, transaction));
    }
    if (done) {
      return sendHtml(response, 200, alreadyProcessedPage(BRAND, { declined: done.status !== 'successful', returnUrl: redirectLocation(payment, done) }));
    }
    sendHtml(
      response,
      200,
      checkoutPage(BRAND, {
        title: 'Pay with card',
        body: paymentForm(BRAND, { email: payment.email, currency: payment.currency, amountKobo: payment.amountKobo, reference: payment.txRef }),
      }),
    );
  }

  return servePaymentFake(options.port, scopes, webhooks, async (request, response, state) => {
    const { method, path } = request;
    if (method === 'POST' && path === '/v3/payments') return withKey(request, response, (domain) => initialize(state, domain, request, response));
    if (method === 'GET' && path === '/v3/transactions/verify_by_reference') {
      return withKey(request, response, (domain) => {
        const payment = state.payments.get(request.query.get('tx_ref') ?? '');
        answerTransaction(response, domain, payment?.transactionId == null ? undefined : state.transactions.get(payment.transactionId));
      });
    }
    const verifyMatch = /^\/v3\/transactions\/([^/]+)\/verify$/.exec(path);
    if (method === 'GET' && verifyMatch) {
      return withKey(request, response, (domain) =>
        answerTransaction(response, domain, /^\d+$/.test(verifyMatch[1]) ? state.transactions.get(Number(verifyMatch[1])) : undefined),
      );
    }
    if (method === 'GET' && path === '/v3/balances') return withKey(request, response, (domain) => balances(state, domain, response));
    const hostedMatch = /^\/v3\/hosted\/pay\/([0-9a-f]+)$/.exec(path);
    if ((method === 'GET' || method === 'POST') && hostedMatch) return checkout(request, response, hostedMatch[1]);
    const send = (transaction: Transaction, event: string, data: Record<string, unknown>) =>
      webhooks.send(state.webhooks, state.controls, {
        event,
        reference: transaction.txRef,
        body: JSON.stringify({ event, data }),
        signature: options.secretHash,
      });
    const reversal = method === 'POST' ? flutterwaveReversals(state, send)[path] : undefined;
    if (reversal) return reversal(request, response);
    refuse(response, 404, 'Route not found');
  });
}
