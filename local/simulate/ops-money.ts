// Operations that bring money in: sign-ups (each with a reseller API key), card deposits through the
// sandbox Paystack (paid, declined or abandoned; verified by the return page once, twice at once or
// not at all; webhooks on time, duplicated, late or dropped), replays of webhooks already sent, and
// administrators' credits (sometimes sent twice with one reference).
import { type Answer, call, Session, said } from './http';
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

export async function signUp(sim: Sim): Promise<string> {
  tally(sim, 'sign-up');
  const { rng, stack, world } = sim;
  const email = `${fresh(world, 'sim')}@example.com`.toLowerCase();
  const ip = `10.${rng.int(1, 250)}.${rng.int(1, 250)}.${rng.int(1, 250)}`;
  // A sign-up lost to a dropped connection may have happened: the retry then hears the address is taken.
  await through(
    'sign-up',
    () => call(`${stack.url}/api/v1/auth/register`, { body: { fullName: 'Sim User', email, password: PASSWORD, userType: 2 }, ip }),
    (answer) => answer.kind === 'answered' && (answer.status === 201 || answer.status === 409),
  );
  const session = new Session(stack.url, email, PASSWORD, ip);
  await session.signIn();
  const key = await through('creating an API key', () => session.api('user/api-keys', { body: { name: 'simulator' } }), answered(201));
  const apiKey = (key as Extract<Answer, { kind: 'answered' }>).body.data.key as string;
  const user = { id: session.userId, session, apiKey };
  world.users.push(user);
  // Most new users fund the wallet before anything else.
  if (!rng.chance(0.8)) return `sign-up user ${user.id}`;
  return `sign-up user ${user.id}, then ${await deposit(sim, user)}`;
}

type DepositVariant = 'verify' | 'verify twice at once' | 'webhook duplicated' | 'webhook late' | 'webhook dropped' | 'declined' | 'abandoned';

/** What verify-payment must say of a deposit (data.orderStatus): 2 credited, 3 failed, 1 pending. */
const ORDER_STATUS = { success: 2, failed: 3, abandoned: 1 } as const;

/** A verify-payment call; a 200 that contradicts what the payer did is a broken promise, thrown. */
export async function verifyDeposit(sim: Sim, deposit: SimDeposit, abortAfterMs?: number): Promise<Answer> {
  const user = sim.world.users.find((candidate) => candidate.id === deposit.userId)!;
  const answer = await user.session.api('user/verify-payment', { body: deposit.payload, abortAfterMs });
  expect(sim, 'POST user/verify-payment', answer, [200]);
  if (answer.kind === 'answered' && answer.status === 200 && answer.body?.data?.orderStatus !== ORDER_STATUS[deposit.outcome]) {
    throw new Error(
      `verify-payment of ${deposit.reference} (${deposit.outcome} at the checkout) answered orderStatus ${answer.body?.data?.orderStatus}, not ${ORDER_STATUS[deposit.outcome]}`,
    );
  }
  return answer;
}

export async function deposit(sim: Sim, payer?: SimUser): Promise<string> {
  const { rng, stack, world } = sim;
  const user = payer ?? rng.pick(world.users);
  const variant = rng.weighted<DepositVariant>({
    verify: 4,
    'verify twice at once': 2,
    'webhook duplicated': 2,
    'webhook late': 2,
    'webhook dropped': 1,
    declined: 2,
    abandoned: 1,
  });
  tally(sim, `deposit (${variant})`);
  const amount = rng.chance(0.08) ? 150_000 : rng.pick(DEPOSIT_NAIRA);
  const webhooks: Record<string, unknown> =
    variant === 'webhook duplicated'
      ? { webhookMode: 'duplicate', webhookTimes: rng.int(2, 3) }
      : variant === 'webhook late'
        ? { webhookMode: 'delay', webhookDelayMs: rng.int(100, 4000) }
        : variant === 'webhook dropped'
          ? { webhookMode: 'drop' }
          : { webhookMode: 'normal' };
  await control(stack.paystackUrl, webhooks);
  const started = await user.session.api('user/add-fund', { body: { amount } });
  if (!expect(sim, 'POST user/add-fund', started, [201]) || started.kind !== 'answered' || started.status !== 201)
    return `deposit ₦${amount} by user ${user.id}: add-fund ${said(started)}`;
  const { checkoutUrl, signature, reference } = started.body;
  const outcome: SimDeposit['outcome'] = variant === 'declined' ? 'failed' : variant === 'abandoned' ? 'abandoned' : 'success';
  const record: SimDeposit = { userId: user.id, reference, payload: { checkoutUrl, signature, amount: started.body.amount }, outcome };
  world.deposits.push(record);
  if (outcome !== 'abandoned') {
    const completed = await fetch(`${stack.paystackUrl}/__complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference, outcome }),
    });
    if (!completed.ok) throw new Error(`the sandbox Paystack refused to complete ${reference}: ${completed.status}`);
  }
  const verifies = variant === 'verify twice at once' ? 2 : variant === 'webhook dropped' || variant === 'verify' || rng.chance(0.5) ? 1 : 0;
  const hangUp = takeHangUp(sim);
  const answers = await Promise.all(Array.from({ length: verifies }, (_, i) => verifyDeposit(sim, record, i === 0 ? hangUp : undefined)));
  return `deposit ₦${amount} by user ${user.id} (${variant}, ${reference}): verify ${answers.map(said).join(', ') || 'not called'}`;
}

/** Sends a webhook Paystack already sent once more, exact bytes and signature: a provider retrying. */
export async function replayWebhook(sim: Sim): Promise<string> {
  tally(sim, 'webhook replay');
  const { rng, stack } = sim;
  const { webhooks } = (await (await fetch(`${stack.paystackUrl}/__webhooks`)).json()) as {
    webhooks: Array<{ id: number; reference: string; body: string; signature: string }>;
  };
  const ours = webhooks.filter((webhook) => sim.world.deposits.some((deposit) => deposit.reference === webhook.reference));
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
