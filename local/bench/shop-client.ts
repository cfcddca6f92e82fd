// A small client of the running shop's API for the benchmark and the load test: calls with a
// token and a client address, sign-up, and card deposits completed in the sandbox Paystack.

export interface ShopCall {
  token?: string;
  body?: unknown;
  /** The client address the Worker sees (cf-connecting-ip); sign-up and sign-in are rate limited per address. */
  ip?: string;
}

export async function callApi<T = unknown>(shopUrl: string, method: string, apiPath: string, options: ShopCall = {}): Promise<T> {
  const response = await fetch(`${shopUrl}/api/v1/${apiPath}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.ip ? { 'cf-connecting-ip': options.ip } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${apiPath} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export interface SignedInUser {
  id: number;
  token: string;
}

/** Registers a user and signs them in from `ip`. */
export async function signUp(shopUrl: string, user: { fullName: string; email: string; password: string; ip?: string }): Promise<SignedInUser> {
  const { ip, ...fields } = user;
  await callApi(shopUrl, 'POST', 'auth/register', { ip, body: { ...fields, userType: 2 } });
  const signedIn = await callApi<{ accessToken: string; user: { id: number } }>(shopUrl, 'POST', 'auth/login', {
    ip,
    body: { email: fields.email, password: fields.password },
  });
  return { id: signedIn.user.id, token: signedIn.accessToken };
}

/** What the payment return page sends to POST user/verify-payment (the add-fund answer it keeps). */
export interface DepositPayload {
  checkoutUrl: string;
  signature: string;
  amount: number;
  reference: string;
}

/** Starts a card deposit and pays (or declines) it at the sandbox Paystack's checkout; nothing is verified yet. */
export async function payDeposit(shopUrl: string, paystackUrl: string, token: string, amount: number, outcome: 'success' | 'failed'): Promise<DepositPayload> {
  const deposit = await callApi<DepositPayload>(shopUrl, 'POST', 'user/add-fund', { token, body: { amount } });
  const completed = await fetch(`${paystackUrl}/__complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference: deposit.reference, outcome }),
  });
  if (!completed.ok) throw new Error(`the sandbox Paystack refused to complete ${deposit.reference}`);
  return { checkoutUrl: deposit.checkoutUrl, signature: deposit.signature, amount: deposit.amount, reference: deposit.reference };
}
