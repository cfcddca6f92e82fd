// Operations that bring money in: sign-ups (each confirming its address from the sandbox mailbox, at once or in
// a later step, and then making a reseller API key, from a public address of its own or a given one, through someone's referral link or
// not), card deposits through the sandbox Paystack or Flutterwave, whichever the shop takes (paid, declined
// or abandoned; verified by the return page once, twice at once or not at all; Paystack's webhooks on time,
// duplicated, late or dropped), paid with the payer's own card or a named one, replays of webhooks already
// sent, and administrators' credits (sometimes sent twice with one reference).
import { nairaToKobo } from '../../worker/lib/decimal';
import { type Answer, call, cookieSet, Session, said } from './http';
import { reversedInFullAtProvider } from './provider-truth';
import { control, expect, fresh, type Sim, type SimDeposit, type SimUser, sleep, takeHangUp, tally } from './world';

const PASSWORD = 'sim-password-1';
const DEPOSIT_NAIRA = [1_000, 2_500, 5_000, 10_000, 20_000, 50_000];

/** Retries a call the simulator needs to get through (set-up, not what is under test) past dropped connections. */
async function through(what: string, send: () => Promise<Answer>, ok: (answer: Answer) => boolean): Promise<Answer> {
  let answer = await send();
  for (let attempt = 1; !ok(answer) && attempt < 5; attempt += 1) {
    if (answer.kind === 'answered' && answer.status < 500) break;
    await sleep(200 * attempt);
    answer = await send();
  }
  if (!ok(answer)) throw new Error(`${what} failed: ${said(answer)} ${answer.kind === 'answered' ? answer.text.slice(0, 300) : ''}`);
  return answer;
}

const answered = (status: number) => (answer: Answer) => answer.kind === 'answered' && answer.status === status;

/** The user's referral code (GET user/referrals makes it the first time). */
export async function referralCodeOf(user: SimUser): Promise<string> {
  if (user.code) return user.code;
  const answer = await through('reading a referral code', () => user.session.api('user/referrals'), answered(200));
  user.code = (answer as Extract<Answer, { kind: 'answered' }>).body.data.code as string;
  return user.code;
}

/**
 * A public address (the shop keeps only public ones, and no commission is paid between accounts made
 * from one): 203.0.x.x, a different one for nearly every sign-up.
 */
const publicAddress = (sim: Sim) => `203.0.${sim.rng.int(0, 255)}.${sim.rng.int(1, 254)}`;

export interface SignUpOptions {
  /** Signs up through this user's referral link. */
  referrer?: SimUser;
  /** From this address instead of a new one (a referrer making a second account from where they made the first). */
  ip?: string;
  /** On this browser (its device cookie) instead of a new one. */
  device?: string;
  /** Funds the wallet afterwards (most new users do); false never, true always. */
  deposit?: boolean;
  /** Confirms the address (and makes an API key) at once; false leaves both for a later step. */
  confirm?: boolean;
}

/**
 * Confirms the address from the sandbox mailbox, as its owner would: API keys and referral commission need it.
 * A retried use of a link whose first use was lost answers 400 (spent), the address confirmed all the same.
 */
async function confirmAddress(sim: Sim, email: string, ip: string): Promise<void> {
  const inbox = (await (await fetch(`${sim.stack.mailboxUrl}/__messages?to=${encodeURIComponent(email)}`)).json()) as { messages: Array<{ text: string }> };
  const link = inbox.messages.map((message) => /verify-email\?token=(\S+)/.exec(message.text)).findLast((found) => found !== null);
  if (!link) throw new Error(`no confirmation link was emailed to ${email}`);
  const token = decodeURIComponent(link[1]);
  await through(
    'confirming the address',
    () => call(`${sim.stack.url}/api/v1/auth/verify-email`, { body: { token }, ip }),
    (answer) => answer.kind === 'answered' && (answer.status === 200 || answer.status === 400),
  );
}

/** Confirms the user's address from the mailbox, then makes the API key only a confirmed address may have. */
async function confirmAndMakeKey(sim: Sim, user: SimUser): Promise<void> {
  await confirmAddress(sim, user.email, user.ip);
  const key = await through('creating an API key', () => user.session.api('user/api-keys', { body: { name: 'simulator' } }), answered(201));
  user.apiKey = (key as Extract<Answer, { kind: 'answered' }>).body.data.key as string;
}

/** A user who signed up without confirming does so now, often after deposits their referrer earned nothing on. */
export async function confirmLate(sim: Sim): Promise<string> {
  tally(sim, 'address confirmed late');
  const user = sim.rng.pick(sim.world.users.filter((candidate) => !candidate.apiKey));
  await confirmAndMakeKey(sim, user);
  return `user ${user.id} confirms their address at last`;
}

export async function signUp(sim: Sim, options: SignUpOptions = {}): Promise<string> {
  tally(sim, options.referrer ? 'sign-up through a referral link' : 'sign-up');
  const { rng, stack, world } = sim;
  const email = `${fresh(world, 'sim')}@example.com`.toLowerCase();
  const ip = options.ip ?? publicAddress(sim);
  const referralCode = options.referrer ? await referralCodeOf(options.referrer) : undefined;
  const names = ['Ada Obi', 'Tunde Bakare', 'Chioma Eze', 'Sim User', 'Ngozi Okafor Adeyemi'];
  // A sign-up lost to a dropped connection may have happened: the retry then hears the address is taken.
  const registered = await through(
    'sign-up',
    () =>
      call(`${stack.url}/api/v1/auth/register`, {
        body: { fullName: rng.pick(names), email, password: PASSWORD, userType: 2, ...(referralCode ? { referralCode } : {}) },
        headers: options.device ? { cookie: `device=${options.device}` } : {},
        ip,
      }),
    (answer) => answer.kind === 'answered' && (answer.status === 201 || answer.status === 409),
  );
  // The browser's id: the one it sent, else the one the shop gave it (a retry after a lost sign-up: not known).
  const device = options.device ?? cookieSet(registered, 'device');
  const session = new Session(stack.url, email, PASSWORD, ip);
  await session.signIn();
  const user: SimUser = {
    id: session.userId,
    email,
    session,
    apiKey: null,
    ip,
    device,
    referrerId: options.referrer?.id ?? null,
    code: null,
    accountNumber: null,
  };
  if (options.confirm ?? true) await confirmAndMakeKey(sim, user);
  world.users.push(user);
  const same = `${options.ip ? ', from their address' : options.device ? ', on their browser' : ''}${user.apiKey ? '' : ', address not confirmed yet'}`;
  const referred = options.referrer ? ` (referred by user ${options.referrer.id}${same})` : '';
  // Most new users fund the wallet before anything else.
  if (!(options.deposit ?? rng.chance(0.8))) return `sign-up user ${user.id}${referred}`;
  return `sign-up user ${user.id}${referred}, then ${await deposit(sim, { payer: user })}`;
}

type DepositVariant = 'verify' | 'verify twice at once' | 'webhook duplicated' | 'webhook late' | 'webhook dropped' | 'declined' | 'abandoned';

/** What verify-payment must say of a deposit (data.orderStatus): 2 credited, 3 failed, 1 pending. */
const ORDER_STATUS = { success: 2, failed: 3, abandoned: 1 } as const;

/**
 * A verify-payment call; a 200 that contradicts what the payer did is a broken promise, thrown. A paid
 * deposit the provider has since reversed in full (refunded or charged back) before the shop credited it
 * may be answered failed: the provider itself calls it reversed, and that money was never the shop's to credit.
 */
export async function verifyDeposit(sim: Sim, deposit: SimDeposit, abortAfterMs?: number): Promise<Answer> {
  const user = sim.world.users.find((candidate) => candidate.id === deposit.userId)!;
  const answer = await user.session.api('user/verify-payment', { body: deposit.payload, abortAfterMs });
  expect(sim, 'POST user/verify-payment', answer, [200]);
  const said = answer.kind === 'answered' && answer.status === 200 ? answer.body?.data?.orderStatus : undefined;
  const reversed = deposit.outcome === 'success' && said === ORDER_STATUS.failed && reversedInFullAtProvider(sim.world, deposit);
  // Flutterwave knows no transaction until the payer pays or is declined on its page ("No transaction was found"):
  // the shop calls an abandoned checkout failed, and would still credit it were it paid later (its webhook re-verifies).
  const unknownToFlutterwave = deposit.outcome === 'abandoned' && deposit.provider === 'flutterwave' && said === ORDER_STATUS.failed;
  if (said !== undefined && said !== ORDER_STATUS[deposit.outcome] && !reversed && !unknownToFlutterwave) {
    throw new Error(
      `verify-payment of ${deposit.reference} (${deposit.outcome} at the checkout) answered orderStatus ${answer.kind === 'answered' ? answer.body?.data?.orderStatus : ''}, not ${ORDER_STATUS[deposit.outcome]}`,
    );
  }
  return answer;
}

export interface DepositOptions {
  payer?: SimUser;
  /** The name of the card paid with (the sandbox's card of that name); by default the payer's own (their email's). */
  card?: string;
  /** A deposit that must be paid and verified (the first half of a self-referral attempt). */
  paid?: boolean;
}

/** Pays or declines a checkout at the sandbox provider as the payer would, with the card named `card`. */
async function completeCheckout(sim: Sim, deposit: SimDeposit, outcome: 'success' | 'failed', card: string): Promise<void> {
  const completed =
    deposit.provider === 'paystack'
      ? await fetch(`${sim.stack.paystackUrl}/__complete`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ reference: deposit.reference, outcome, card }),
        })
      : await fetch(deposit.payload!.checkoutUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ outcome, card }),
          redirect: 'manual',
        });
  if (!completed.ok && completed.status !== 302)
    throw new Error(`the sandbox ${deposit.provider} refused to complete ${deposit.reference}: ${completed.status}`);
}

export async function deposit(sim: Sim, options: DepositOptions = {}): Promise<string> {
  const { rng, stack, world } = sim;
  const user = options.payer ?? rng.pick(world.users);
  const provider = world.provider;
  // The sandbox Flutterwave sends its webhooks as they happen: only the return page varies there.
  const variant = options.paid
    ? 'verify'
    : rng.weighted<DepositVariant>({
        verify: 4,
        'verify twice at once': 2,
        'webhook duplicated': provider === 'paystack' ? 2 : 0,
        'webhook late': provider === 'paystack' ? 2 : 0,
        'webhook dropped': provider === 'paystack' ? 1 : 0,
        declined: 2,
        abandoned: 1,
      });
  tally(sim, `deposit ${provider} (${variant})`);
  const amount = rng.chance(0.08) ? 150_000 : rng.pick(DEPOSIT_NAIRA);
  const webhooks: Record<string, unknown> =
    variant === 'webhook duplicated'
      ? { webhookMode: 'duplicate', webhookTimes: rng.int(2, 3) }
      : variant === 'webhook late'
        ? { webhookMode: 'delay', webhookDelayMs: rng.int(100, 4000) }
        : variant === 'webhook dropped'
          ? { webhookMode: 'drop' }
          : { webhookMode: 'normal' };
  if (provider === 'paystack') await control(stack.paystackUrl, webhooks);
  const started = await user.session.api('user/add-fund', { body: { amount } });
  if (!expect(sim, 'POST user/add-fund', started, [201]) || started.kind !== 'answered' || started.status !== 201)
    return `deposit ₦${amount} by user ${user.id}: add-fund ${said(started)}`;
  const { checkoutUrl, signature, reference } = started.body;
  const outcome: SimDeposit['outcome'] = variant === 'declined' ? 'failed' : variant === 'abandoned' ? 'abandoned' : 'success';
  const card = options.card ?? user.email;
  const record: SimDeposit = {
    userId: user.id,
    reference,
    provider,
    channel: 'card',
    amountKobo: Number(nairaToKobo(String(started.body.amount))),
    instrument: `card:${card}`,
    payload: { checkoutUrl, signature, amount: started.body.amount },
    outcome,
  };
  world.deposits.push(record);
  if (outcome !== 'abandoned') await completeCheckout(sim, record, outcome, card);
  const verifies = variant === 'verify twice at once' ? 2 : variant === 'webhook dropped' || variant === 'verify' || rng.chance(0.5) ? 1 : 0;
  const hangUp = options.paid ? undefined : takeHangUp(sim);
  const answers = await Promise.all(Array.from({ length: verifies }, (_, i) => verifyDeposit(sim, record, i === 0 ? hangUp : undefined)));
  const named = options.card ? `, card of ${options.card}` : '';
  return `deposit ₦${amount} by user ${user.id} (${provider}, ${variant}${named}, ${reference}): verify ${answers.map(said).join(', ') || 'not called'}`;
}

/** Sends a webhook Paystack already sent once more, exact bytes and signature: a provider retrying. */
export async function replayWebhook(sim: Sim): Promise<string> {
  tally(sim, 'webhook replay');
  const { rng, stack } = sim;
  const { webhooks } = (await (await fetch(`${stack.paystackUrl}/__webhooks`)).json()) as {
    webhooks: Array<{ id: number; event: string; reference: string; body: string; signature: string }>;
  };
  // Payment webhooks only: the refund and dispute events are the provider's to deliver (ops-reversals.ts), which tracks each.
  const ours = webhooks.filter(
    (webhook) => webhook.event === 'charge.success' && sim.world.deposits.some((deposit) => deposit.reference === webhook.reference),
  );
  if (ours.length === 0) return 'webhook replay: none sent yet';
  const webhook = rng.pick(ours);
  const copies = rng.int(1, 3);
  const hangUp = takeHangUp(sim);
  const answers = await Promise.all(
    Array.from({ length: copies }, (_, i) => sendRaw(stack.url, webhook.body, webhook.signature, i === 0 ? hangUp : undefined)),
  );
  for (const answer of answers) expect(sim, 'POST webhooks/paystack', answer, [200]);
  return `webhook replay of ${webhook.reference} ×${copies}: ${answers.map(said).join(', ')}`;
}

/** A webhook as Paystack posts it: the exact bytes it signed. */
function sendRaw(shopUrl: string, body: string, signature: string, abortAfterMs?: number): Promise<Answer> {
  return call(`${shopUrl}/api/v1/webhooks/paystack`, {
    raw: body,
    headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
    abortAfterMs,
  });
}

/** An administrator's credit; sometimes the same reference twice at once, which must credit once. */
export async function adminCredit(sim: Sim): Promise<string> {
  tally(sim, 'admin credit');
  const { rng, world } = sim;
  const user = rng.pick(world.users);
  const reference = fresh(world, 'credit');
  const amount = rng.pick([500, 2_000, 10_000]);
  const copies = rng.chance(0.4) ? 2 : 1;
  const hangUp = takeHangUp(sim);
  const answers = await Promise.all(
    Array.from({ length: copies }, (_, i) =>
      sim.admin.api('user/admin-credit-user-wallet', {
        body: { amount, reference, userId: user.id },
        abortAfterMs: i === 0 ? hangUp : undefined,
      }),
    ),
  );
  for (const answer of answers) expect(sim, 'POST user/admin-credit-user-wallet', answer, copies > 1 ? [200, 409] : [200]);
  return `admin credit ₦${amount} to user ${user.id} (${reference}) ×${copies}: ${answers.map(said).join(', ')}`;
}
