// The fake Paystack's Dedicated Virtual Accounts (https://paystack.com/docs/payments/dedicated-virtual-accounts/):
// POST /customer and POST /dedicated_account answered as Paystack answers them, and bank transfers
// to those accounts, sent from a test or from the sandbox page at /transfer, which paystack.ts records
// as dedicated_nuban transactions with charge.success.
//
// POST /__transfer {accountNumber, amount, senderAccount?, senderBank?} sends `amount` kobo to the dedicated
// account `accountNumber`, from the bank account `senderAccount` (a 10-digit number used as given, or any
// other text naming one account; by default the receiving account's owner's own, one per owner's email) at
// `senderBank` ("Test Sender Bank" by default). As Paystack does, the transaction's authorization reports
// the sender masked but for the last four digits (sender_bank_account_number "XXXXXX4412") with the
// holder's name (sender_name, one per sending account), and the bank (sender_bank): the same
// senderAccount and bank always read the same, different ones differently. Answers {reference, id}.
import type { ServerResponse } from 'node:http';
import { type CheckoutBrand, checkoutPage, formatAmount } from './checkout';
import { escapeHtml, type FakeRequest, readFields, sendHtml, sendJson } from './http';
import { testBankAccount } from './payment-fake';

type Domain = 'test' | 'live';

export interface FakeCustomer {
  id: number;
  code: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  domain: Domain;
}

export interface FakeDedicatedAccount {
  id: number;
  customerCode: string;
  accountNumber: string;
  accountName: string;
  bank: { id: number; name: string; slug: string };
  domain: Domain;
  createdAt: string;
}

export interface TransferState {
  /** By domain and email: Paystack keeps one customer per email on an integration. */
  customers: Map<string, FakeCustomer>;
  /** By account number. */
  accounts: Map<string, FakeDedicatedAccount>;
}

/** The banks Paystack offers for dedicated accounts: "test-bank" on test keys, real ones on live keys. */
const BANKS: Record<Domain, Record<string, { id: number; name: string }>> = {
  test: { 'test-bank': { id: 23, name: 'Test Bank' } },
  live: { 'wema-bank': { id: 20, name: 'Wema Bank' }, 'titan-paystack': { id: 24, name: 'Titan Paystack' } },
};
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
let nextCustomerId = 180_000_000;
let nextAccountId = 5_000;
let nextAccountNumber = 9_930_000_000;

export const newTransferState = (): TransferState => ({ customers: new Map(), accounts: new Map() });

function customerView(customer: FakeCustomer) {
  return {
    email: customer.email,
    integration: 100_032,
    domain: customer.domain,
    customer_code: customer.code,
    id: customer.id,
    first_name: customer.firstName,
    last_name: customer.lastName,
    phone: customer.phone,
    identified: false,
    identifications: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  };
}

/** POST /customer: creates the customer, or answers the existing one for that email, as Paystack does. */
export function createCustomer(state: TransferState, domain: Domain, request: FakeRequest, response: ServerResponse): void {
  const fields = readFields(request);
  const email = typeof fields.email === 'string' ? fields.email.trim().toLowerCase() : '';
  if (!EMAIL_PATTERN.test(email)) return sendJson(response, 400, { status: false, message: 'Invalid Email Address Passed' });
  const key = `${domain}:${email}`;
  let customer = state.customers.get(key);
  if (!customer) {
    const id = nextCustomerId++;
    customer = {
      id,
      code: `CUS_${id.toString(36)}dva`,
      email,
      domain,
      firstName: typeof fields.first_name === 'string' ? fields.first_name : '',
      lastName: typeof fields.last_name === 'string' ? fields.last_name : '',
      phone: typeof fields.phone === 'string' ? fields.phone : null,
    };
    state.customers.set(key, customer);
  }
  sendJson(response, 200, { status: true, message: 'Customer created', data: customerView(customer) });
}

function accountView(account: FakeDedicatedAccount, customer: FakeCustomer) {
  return {
    bank: account.bank,
    account_name: account.accountName,
    account_number: account.accountNumber,
    assigned: true,
    currency: 'NGN',
    metadata: null,
    active: true,
    id: account.id,
    created_at: account.createdAt,
    updated_at: account.createdAt,
    assignment: {
      integration: 100_032,
      assignee_id: customer.id,
      assignee_type: 'Customer',
      expired: false,
      account_type: 'PAY-WITH-TRANSFER-RECURRING',
      assigned_at: account.createdAt,
    },
    customer: customerView(customer),
  };
}

/** POST /dedicated_account {customer, preferred_bank}: one account per customer; asking again answers it again. */
export function createDedicatedAccount(state: TransferState, domain: Domain, request: FakeRequest, response: ServerResponse): void {
  const fields = readFields(request);
  const code = typeof fields.customer === 'string' ? fields.customer : '';
  const customer = [...state.customers.values()].find((c) => c.code === code && c.domain === domain);
  if (!customer) return sendJson(response, 400, { status: false, message: 'Customer not found' });
  const slug = typeof fields.preferred_bank === 'string' ? fields.preferred_bank : '';
  const bank = BANKS[domain][slug];
  if (!bank) return sendJson(response, 400, { status: false, message: `Invalid preferred bank. Supported banks: ${Object.keys(BANKS[domain]).join(', ')}` });
  let account = [...state.accounts.values()].find((a) => a.customerCode === code);
  if (!account) {
    const name = `${customer.firstName} ${customer.lastName}`.trim().toUpperCase();
    account = {
      id: nextAccountId++,
      customerCode: code,
      accountNumber: String(nextAccountNumber++),
      accountName: `PAYSTACK/${name || customer.email.toUpperCase()}`,
      bank: { ...bank, slug },
      domain,
      createdAt: new Date().toISOString(),
    };
    state.accounts.set(account.accountNumber, account);
  }
  sendJson(response, 200, { status: true, message: 'NUBAN successfully created', data: accountView(account, customer) });
}

export interface TransferTarget {
  account: FakeDedicatedAccount;
  customer: FakeCustomer;
}

/** The bank account a transfer came from. */
export interface TransferSender {
  accountNumber: string;
  holder: string;
  bank: string;
}

const DEFAULT_SENDER_BANK = 'Test Sender Bank';

/**
 * The account named `senderAccount` at `senderBank`; by default the receiving account owner's own, named by
 * their email (not by the dedicated account's number, which this fake hands out again after a restart).
 */
function transferSender(target: TransferTarget, senderAccount?: string, senderBank?: string): TransferSender {
  const account = testBankAccount(senderAccount ?? `the own account of ${target.customer.email}`);
  return { ...account, bank: senderBank ?? DEFAULT_SENDER_BANK };
}

/** Optional text of at most 100 characters: undefined when absent or empty, null when it is something else. */
function optionalText(value: unknown): string | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' && value.trim() !== '' && value.length <= 100 ? value.trim() : null;
}

/** Records a paid transfer to the target and tells the shop (paystack.ts); answers its reference. */
type Receive = (target: TransferTarget, kobo: number, sender: TransferSender) => Promise<{ reference: string; id: number }>;

/** Who a transfer to `accountNumber` reaches; null for an account this fake never gave out. */
function transferTarget(state: TransferState, accountNumber: string): TransferTarget | null {
  const account = state.accounts.get(accountNumber.trim());
  const customer = account && [...state.customers.values()].find((c) => c.code === account.customerCode);
  return account && customer ? { account, customer } : null;
}

/** The sandbox's "send a transfer" page: account number and amount, as a bank app would ask. */
function transferPage(brand: CheckoutBrand, response: ServerResponse, result?: { ok: boolean; text: string }): void {
  const notice = result ? `<p class="${result.ok ? 'email' : 'ref'}">${escapeHtml(result.text)}</p>` : '';
  sendHtml(
    response,
    result && !result.ok ? 400 : 200,
    checkoutPage(brand, {
      title: 'Send a test bank transfer',
      body: `${notice}
    <form method="post">
      <p><label>Account number<br><input name="accountNumber" inputmode="numeric" required style="width:100%;padding:10px;border:1px solid #cfd8e3;border-radius:8px"></label></p>
      <p><label>Amount (NGN)<br><input name="amount" inputmode="decimal" required style="width:100%;padding:10px;border:1px solid #cfd8e3;border-radius:8px"></label></p>
      <p><label>From your account number (optional)<br><input name="senderAccount" inputmode="numeric" style="width:100%;padding:10px;border:1px solid #cfd8e3;border-radius:8px"></label></p>
      <button class="pay" type="submit">Send transfer</button>
    </form>
    <p class="ref">Test money only: the transfer reaches the dedicated account and Paystack tells the shop, as a real one would.</p>`,
    }),
  );
}

/** Naira text from the page ("1500", "1,500.50") as kobo; null when it is not an amount. */
function nairaToKobo(text: string): number | null {
  const clean = text.replaceAll(',', '').trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  const kobo = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return kobo > 0 ? kobo : null;
}

const transferDone = (kobo: number, account: FakeDedicatedAccount) => `Sent NGN ${formatAmount(kobo)} to ${account.accountNumber} (${account.bank.name}).`;

/** POST /__transfer {accountNumber, amount (kobo), senderAccount?, senderBank?}: a test sends money to a dedicated account. */
export async function transferByApi(state: TransferState, request: FakeRequest, response: ServerResponse, receive: Receive): Promise<void> {
  const fields = readFields(request);
  const target = typeof fields.accountNumber === 'string' ? transferTarget(state, fields.accountNumber) : null;
  if (!target) return sendJson(response, 404, { error: 'No dedicated account with that number' });
  if (typeof fields.amount !== 'number' || !Number.isSafeInteger(fields.amount) || fields.amount <= 0)
    return sendJson(response, 400, { error: 'amount must be whole kobo above 0' });
  const senderAccount = optionalText(fields.senderAccount);
  const senderBank = optionalText(fields.senderBank);
  if (senderAccount === null) return sendJson(response, 400, { error: 'senderAccount must be text of at most 100 characters' });
  if (senderBank === null) return sendJson(response, 400, { error: 'senderBank must be text of at most 100 characters' });
  const { reference, id } = await receive(target, fields.amount, transferSender(target, senderAccount, senderBank));
  sendJson(response, 200, { reference, id });
}

/** GET/POST /transfer: the same from the sandbox page, for people trying the shop. */
export async function transferBySandboxPage(
  brand: CheckoutBrand,
  state: TransferState,
  request: FakeRequest,
  response: ServerResponse,
  receive: Receive,
): Promise<void> {
  if (request.method === 'GET') return transferPage(brand, response);
  const fields = readFields(request);
  const target = transferTarget(state, String(fields.accountNumber ?? ''));
  const kobo = nairaToKobo(String(fields.amount ?? ''));
  if (!target) return transferPage(brand, response, { ok: false, text: 'No dedicated account has that number.' });
  if (kobo === null) return transferPage(brand, response, { ok: false, text: 'Enter an amount in naira, like 1500.' });
  const senderAccount = optionalText(fields.senderAccount);
  if (senderAccount === null) return transferPage(brand, response, { ok: false, text: 'Enter your account number, or leave it empty.' });
  await receive(target, kobo, transferSender(target, senderAccount));
  transferPage(brand, response, { ok: true, text: transferDone(kobo, target.account) });
}

/** How Paystack reports a dedicated_nuban payment's "authorization": the accounts the money went between, the sender's masked. */
export function transferAuthorization(account: FakeDedicatedAccount, reference: string, sender: TransferSender) {
  return {
    authorization_code: `AUTH_${reference.slice(0, 10)}`,
    bin: '008XXX',
    last4: `X${sender.accountNumber.slice(-3)}`,
    exp_month: '12',
    exp_year: '9999',
    channel: 'dedicated_nuban',
    card_type: 'transfer',
    bank: sender.bank,
    country_code: 'NG',
    brand: 'Managed Account',
    reusable: false,
    signature: null,
    account_name: null,
    sender_country: 'NG',
    sender_bank: sender.bank,
    sender_bank_account_number: `XXXXXX${sender.accountNumber.slice(-4)}`,
    sender_name: sender.holder,
    receiver_bank_account_number: account.accountNumber,
    receiver_bank: account.bank.name,
    narration: `Transfer to ${account.accountName}`,
  };
}
