// The fake Paystack's Dedicated Virtual Accounts (https://paystack.com/docs/payments/dedicated-virtual-accounts/):
// POST /customer and POST /dedicated_account answered as Paystack answers them, and bank transfers
// to those accounts, sent from a test (POST /__transfer {accountNumber, amount}) or from the sandbox
// page at /transfer, which paystack.ts records as dedicated_nuban transactions with charge.success.
import type { ServerResponse } from 'node:http';
import { type CheckoutBrand, checkoutPage, formatAmount } from './checkout';
import { escapeHtml, type FakeRequest, readFields, sendHtml, sendJson } from './http';

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

/** Records a paid transfer to the target and tells the shop (paystack.ts); answers its reference. */
type Receive = (target: TransferTarget, kobo: number) => Promise<{ reference: string; id: number }>;

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

/** POST /__transfer {accountNumber, amount (kobo)}: a test sends money to a dedicated account. */
export async function transferByApi(state: TransferState, request: FakeRequest, response: ServerResponse, receive: Receive): Promise<void> {
  const fields = readFields(request);
  const target = typeof fields.accountNumber === 'string' ? transferTarget(state, fields.accountNumber) : null;
  if (!target) return sendJson(response, 404, { error: 'No dedicated account with that number' });
  if (typeof fields.amount !== 'number' || !Number.isSafeInteger(fields.amount) || fields.amount <= 0)
    return sendJson(response, 400, { error: 'amount must be whole kobo above 0' });
  const { reference, id } = await receive(target, fields.amount);
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
  await receive(target, kobo);
  transferPage(brand, response, { ok: true, text: transferDone(kobo, target.account) });
}

/** How Paystack reports a dedicated_nuban payment's "authorization": the accounts the money went between. */
export function transferAuthorization(account: FakeDedicatedAccount, reference: string) {
  return {
    authorization_code: `AUTH_${reference.slice(0, 10)}`,
    bin: '008XXX',
    last4: 'X553',
    exp_month: '12',
    exp_year: '9999',
    channel: 'dedicated_nuban',
    card_type: 'transfer',
    bank: 'Test Sender Bank',
    country_code: 'NG',
    brand: 'Managed Account',
    reusable: false,
    signature: null,
    account_name: null,
    sender_country: 'NG',
    sender_bank: 'Test Sender Bank',
    sender_bank_account_number: 'XXXXXX4412',
    sender_name: 'TEST SENDER',
    receiver_bank_account_number: account.accountNumber,
    receiver_bank: account.bank.name,
    narration: `Transfer to ${account.accountName}`,
  };
}
