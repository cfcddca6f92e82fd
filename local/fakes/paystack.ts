// A local Paystack: the parts of https://api.paystack.co this shop uses
// (initialize, verify, balance, checkout redirect, signed charge.success webhooks, and
// dedicated accounts with bank transfers to them: paystack-transfers.ts),
// answering in Paystack's envelope {status, message, data} with its messages,
// plus test controls under /__* to make it slow, broken, lying or duplicated,
// and to refund or dispute a paid transaction (paystack-reversals.ts).
// As on Paystack, a transaction lives in the domain ("test" or "live") of the
// key that initialized it, and only a key of that domain can see it. Its answers' data: paystack-transaction.ts.
//
// POST /__complete {reference, outcome: "success" | "failed", card?} pays or declines a checkout as the
// payer would (so does posting `outcome` and `card` to the checkout page). `card` is any text naming the
// card paid with: the verify answer's and charge.success's authorization carry that card's bin, last4,
// expiry and `signature` (Paystack's card fingerprint), the same for the same `card` and different for
// different ones. Without it the card is the payer's email's (lower-cased), so each email has its own card.
// Bank transfers to dedicated accounts, and their sender's account: paystack-transfers.ts (POST /__transfer).

import { createHmac, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { alreadyProcessedPage, type CheckoutBrand, checkoutPage, paymentForm } from './checkout';
import { escapeHtml, type FakeRequest, isOneOf, type RunningFake, readFields, redirect, Scopes, sendGarbage, sendHtml, sendJson } from './http';
import { CheckoutLinks, type Domain, domainsOfKeys, servePaymentFake } from './payment-fake';
import { paystackReversals, type ReversalState } from './paystack-reversals';
import { chargeSuccessData, type Transaction, type VerifyOverrides, verifyData } from './paystack-transaction';
import {
  createCustomer,
  createDedicatedAccount,
  newTransferState,
  type TransferSender,
  type TransferState,
  type TransferTarget,
  transferByApi,
  transferBySandboxPage,
} from './paystack-transfers';
import { applyWebhookControls, defaultWebhookControls, type WebhookControls, type WebhookRecord, webhookSender } from './webhooks';

export interface FakePaystackOptions {
  /** The test secret key (sk_test_…). */
  secretKey: string;
  /** A live secret key (sk_live_…): its transactions are on the live domain. */
  liveSecretKey?: string;
  port?: number;
  /** Where signed webhooks go (Paystack's dashboard "Webhook URL"); null keeps them in /__webhooks only. */
  webhookUrl?: string | null;
  /** Paystack's dashboard "Callback URL": used when initialize sends no callback_url. */
  defaultCallbackUrl?: string | null;
}

type VerifyMode = 'normal' | 'timeout' | 'garbage' | 'error';

interface Controls extends WebhookControls, VerifyOverrides {
  verifyMode: VerifyMode;
}

interface PaystackState extends ReversalState<Transaction>, TransferState {
  scope: string;
  webhooks: WebhookRecord[];
  controls: Controls;
}

const SUPPORTED_CURRENCIES = new Set(['NGN', 'GHS', 'ZAR', 'KES', 'USD', 'XOF', 'EGP']);
/** Paystack: "Only -, ., = and alphanumeric characters allowed." */
const REFERENCE_PATTERN = /^[A-Za-z0-9.=-]+$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
const BRAND: CheckoutBrand = { name: 'Paystack', accent: '#0ba4db', testCard: 'Test card 4084 0840 8408 4081 · any future date · CVV 408' };

export async function startFakePaystack(options: FakePaystackOptions): Promise<RunningFake> {
  const domainOfKey = domainsOfKeys(options);
  let nextId = 4_099_260_000;
  const webhooks = webhookSender({ signatureHeader: 'x-paystack-signature', userAgent: 'Paystack-Webhook (fake)' });

  const defaultControls = (scope: string): Controls => ({
    // Only the root scope knows the app; test scopes read /__webhooks instead.
    ...defaultWebhookControls(scope === '' ? (options.webhookUrl ?? null) : null),
    verifyMode: 'normal',
    overrideAmount: null,
    overrideCurrency: null,
    overrideDomain: null,
  });
  const scopes = new Scopes<PaystackState>((scope) => ({
    scope,
    transactions: new Map(),
    disputes: new Map(),
    webhooks: [],
    controls: defaultControls(scope),
    ...newTransferState(),
  }));
  /** Checkout links: access code -> the transaction's reference in its scope. */
  const checkouts = new CheckoutLinks(scopes, (state: PaystackState, reference: string) => state.transactions.get(reference));

  /** Answers with `handle`, given the domain of the request's key; 401 when it carries none of ours. */
  function withKey(request: FakeRequest, response: ServerResponse, handle: (domain: Domain) => void): void {
    const header = String(request.headers.authorization ?? '');
    if (!/^Bearer\s+\S+/i.test(header)) return sendJson(response, 401, { status: false, message: 'Format is Authorization: Bearer [secret key]' });
    const domain = domainOfKey.get(header.replace(/^Bearer\s+/i, ''));
    if (!domain) return sendJson(response, 401, { status: false, message: 'Invalid key' });
    handle(domain);
  }

  function refuse(response: ServerResponse, status: number, message: string): void {
    sendJson(response, status, { status: false, message });
  }

  function initialize(state: PaystackState, domain: Domain, request: FakeRequest, response: ServerResponse): void {
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
      domain,
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
      reversedKobo: 0,
      channel: 'card',
      card: null,
    });
    checkouts.add(accessCode, state.scope, reference);
    sendJson(response, 200, {
      status: true,
      message: 'Authorization URL created',
      data: { authorization_url: `${request.scopeUrl}/checkout/${accessCode}`, access_code: accessCode, reference },
    });
  }

  function verify(state: PaystackState, domain: Domain, reference: string, response: ServerResponse): void {
    const { controls } = state;
    if (controls.verifyMode === 'timeout') return; // never answers; the connection is cut when the fake closes
    if (controls.verifyMode === 'garbage') return sendGarbage(response, 502);
    if (controls.verifyMode === 'error') return sendJson(response, 500, { status: false, message: 'An error occurred, please try again' });
    const transaction = state.transactions.get(reference);
    // A key never sees the other domain's transactions.
    if (!transaction || transaction.domain !== domain) {
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

  /** GET /balance: what the key's domain holds in NGN, from the payments it took less what was reversed. */
  function balance(state: PaystackState, domain: Domain, response: ServerResponse): void {
    let kobo = 0;
    for (const transaction of state.transactions.values()) {
      if (transaction.domain === domain && transaction.currency === 'NGN' && transaction.status !== 'abandoned' && transaction.status !== 'failed')
        kobo += transaction.amount - transaction.reversedKobo;
    }
    sendJson(response, 200, { status: true, message: 'Balances retrieved', data: [{ currency: 'NGN', balance: kobo }] });
  }

  /** Marks a transaction paid or declined once, with the card named `card` (the payer's email's by default); a paid one sends charge.success as Paystack does. */
  async function complete(state: PaystackState, transaction: Transaction, outcome: 'success' | 'failed', card?: string): Promise<boolean> {
    if (transaction.status !== 'abandoned') return false;
    transaction.status = outcome;
    transaction.card = card ?? transaction.email.toLowerCase();
    transaction.paidAt = outcome === 'success' ? new Date().toISOString() : null;
    if (outcome === 'success') await emitChargeSuccess(state, transaction);
    return true;
  }

  /** Sends one event about `transaction`, signed as Paystack signs: with the secret key of the transaction's own domain. */
  async function emit(state: PaystackState, transaction: Transaction, event: string, data: Record<string, unknown>): Promise<WebhookRecord> {
    const body = JSON.stringify({ event, data });
    const key = [...domainOfKey].find(([, domain]) => domain === transaction.domain)![0];
    const signature = createHmac('sha512', key).update(body, 'utf8').digest('hex');
    return webhooks.send(state.webhooks, state.controls, { event, reference: transaction.reference, body, signature });
  }

  async function emitChargeSuccess(state: PaystackState, transaction: Transaction): Promise<void> {
    await emit(state, transaction, 'charge.success', chargeSuccessData(transaction));
  }

  /** A bank transfer reaching a dedicated account: a paid transaction, told with charge.success as Paystack tells it. */
  async function receiveTransfer(state: PaystackState, target: TransferTarget, kobo: number, sender: TransferSender): Promise<Transaction> {
    const id = nextId++;
    const now = new Date().toISOString();
    const transaction: Transaction = {
      id,
      domain: target.account.domain,
      reference: `T${randomBytes(8).toString('hex')}`,
      accessCode: '',
      amount: kobo,
      currency: 'NGN',
      email: target.customer.email,
      callbackUrl: null,
      metadata: { receiver_account_number: target.account.accountNumber, receiver_bank: target.account.bank.name },
      status: 'success',
      createdAt: now,
      paidAt: now,
      customerId: target.customer.id,
      reversedKobo: 0,
      channel: 'dedicated_nuban',
      customerCode: target.customer.code,
      receiverAccount: target.account,
      sender,
      card: null,
    };
    state.transactions.set(transaction.reference, transaction);
    await emitChargeSuccess(state, transaction);
    return transaction;
  }

  function callbackLocation(transaction: Transaction): string | null {
    if (transaction.callbackUrl === null) return null;
    const target = new URL(transaction.callbackUrl);
    target.searchParams.set('trxref', transaction.reference);
    target.searchParams.set('reference', transaction.reference);
    return target.toString();
  }

  async function checkout(request: FakeRequest, response: ServerResponse, accessCode: string): Promise<void> {
    const opened = checkouts.open(accessCode);
    if (!opened)
      return sendHtml(response, 404, checkoutPage(BRAND, { title: 'Invalid checkout link', body: '<p>This payment link does not exist or has expired.</p>' }));
    const { state, payment: transaction } = opened;

    if (request.method === 'POST') {
      const fields = readFields(request);
      const outcome = fields.outcome === 'success' ? 'success' : 'failed';
      await complete(state, transaction, outcome, cardName(fields.card) ?? undefined);
      const location = callbackLocation(transaction);
      if (location) return redirect(response, location);
      return sendHtml(
        response,
        200,
        checkoutPage(BRAND, {
          title: outcome === 'success' ? 'Payment successful' : 'Payment declined',
          body: `<p>Reference <code>${escapeHtml(transaction.reference)}</code>. You can close this page.</p>`,
        }),
      );
    }

    if (transaction.status !== 'abandoned') {
      return sendHtml(response, 200, alreadyProcessedPage(BRAND, { declined: transaction.status === 'failed', returnUrl: callbackLocation(transaction) }));
    }
    sendHtml(
      response,
      200,
      checkoutPage(BRAND, {
        title: 'Pay with card',
        body: paymentForm(BRAND, {
          email: transaction.email,
          currency: transaction.currency,
          amountKobo: transaction.amount,
          reference: transaction.reference,
        }),
      }),
    );
  }

  async function control(state: PaystackState, request: FakeRequest, response: ServerResponse): Promise<void> {
    const fields = readFields(request);
    const { controls } = state;
    applyWebhookControls(controls, fields);
    if (isOneOf(fields.verifyMode, ['normal', 'timeout', 'garbage', 'error'])) controls.verifyMode = fields.verifyMode;
    if (fields.overrideAmount !== undefined) controls.overrideAmount = typeof fields.overrideAmount === 'number' ? fields.overrideAmount : null;
    if (fields.overrideCurrency !== undefined) controls.overrideCurrency = typeof fields.overrideCurrency === 'string' ? fields.overrideCurrency : null;
    if (fields.overrideDomain !== undefined) controls.overrideDomain = typeof fields.overrideDomain === 'string' ? fields.overrideDomain : null;
    sendJson(response, 200, { controls });
  }

  async function completeByApi(state: PaystackState, request: FakeRequest, response: ServerResponse): Promise<void> {
    const fields = readFields(request);
    const transaction = typeof fields.reference === 'string' ? state.transactions.get(fields.reference) : undefined;
    if (!transaction) return sendJson(response, 404, { error: 'No such transaction' });
    if (fields.outcome !== 'success' && fields.outcome !== 'failed') return sendJson(response, 400, { error: 'outcome must be "success" or "failed"' });
    const card = cardName(fields.card);
    if (card === null) return sendJson(response, 400, { error: 'card must be text of 1 to 200 characters' });
    const changed = await complete(state, transaction, fields.outcome, card);
    sendJson(response, 200, { changed, status: transaction.status, callbackLocation: callbackLocation(transaction) });
  }

  return servePaymentFake(options.port, scopes, webhooks, async (request, response, state, scope) => {
    const { method, path } = request;
    if (method === 'POST' && path === '/transaction/initialize') return withKey(request, response, (domain) => initialize(state, domain, request, response));
    const verifyMatch = /^\/transaction\/verify\/([^/]*)$/.exec(path);
    if (method === 'GET' && verifyMatch) return withKey(request, response, (domain) => verify(state, domain, decodeURIComponent(verifyMatch[1]), response));
    if (method === 'POST' && path === '/customer') return withKey(request, response, (domain) => createCustomer(state, domain, request, response));
    if (method === 'POST' && path === '/dedicated_account')
      return withKey(request, response, (domain) => createDedicatedAccount(state, domain, request, response));
    const receive = (target: TransferTarget, kobo: number, sender: TransferSender) => receiveTransfer(state, target, kobo, sender);
    if (path === '/transfer' && (method === 'GET' || method === 'POST')) return transferBySandboxPage(BRAND, state, request, response, receive);
    if (method === 'POST' && path === '/__transfer') return transferByApi(state, request, response, receive);
    if (method === 'GET' && path === '/balance') return withKey(request, response, (domain) => balance(state, domain, response));
    const checkoutMatch = /^\/checkout\/([a-z0-9]+)$/.exec(path);
    if ((method === 'GET' || method === 'POST') && checkoutMatch) return checkout(request, response, checkoutMatch[1]);
    if (method === 'POST' && path === '/__control') return control(state, request, response);
    if (method === 'POST' && path === '/__complete') return completeByApi(state, request, response);
    const send = (transaction: Transaction, event: string, data: Record<string, unknown>) => emit(state, transaction, event, data);
    const reversal = method === 'POST' ? paystackReversals(state, send)[path] : undefined;
    if (reversal) return reversal(request, response);
    if (method === 'POST' && path === '/__reset') {
      scopes.reset(scope);
      return sendJson(response, 200, { ok: true });
    }
    sendJson(response, 404, { status: false, message: 'Route not found' });
  });
}

/** A control's `card`: undefined when not given, null when it is not text of 1 to 200 characters. */
function cardName(value: unknown): string | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' && value.length <= 200 ? value : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
