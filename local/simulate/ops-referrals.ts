// Referrals and the money around them: the seed's referral programme and payment provider (set by the
// administrator at the seed's start), sign-ups through a user's referral link, self-referral attempts (a
// second account through one's own link, paying with the first account's card, sending a transfer from
// its bank account, or made from its address: the shop must pay no commission on any of them), bank
// transfers to a user's dedicated account (Paystack), held commissions whose hold ends, and the
// administrator switching the payment provider mid-run.
//
// Time passing for held commissions: a commission is held for the seed's holdDays (up to 30 here), far
// longer than a run. "A hold ends" moves a held commission's release_at into the past with direct SQL
// (the simulator's stand-in for the days passing; nothing else about it changes) and runs the cron,
// whose releaseReferralCommissions credits it, sometimes while one of its deposit's reversal webhooks is
// delivered at the same moment.
import { nairaToKobo } from '../../worker/lib/decimal';
import { type Answer, call, said } from './http';
import { runCron } from './ops-chaos';
import { deposit, signUp } from './ops-money';
import { deliver } from './ops-reversals';
import { providerWebhooks, reversedInFullAtProvider } from './provider-truth';
import { control, expect, type PaymentProviderName, type Sim, type SimDeposit, type SimReferralSettings, type SimUser, takeHangUp, tally } from './world';

/** Sets the seed's payment provider and referral programme, each drawn from the seed's random source. */
export async function setUpSeed(sim: Sim): Promise<void> {
  const { rng } = sim;
  const provider: PaymentProviderName = rng.chance(0.3) ? 'flutterwave' : 'paystack';
  const set = await setProvider(sim, provider);
  if (set.kind !== 'answered' || set.status !== 200) throw new Error(`could not take card payments with ${provider}: ${said(set)}`);
  const referral: SimReferralSettings = {
    enabled: rng.chance(0.85),
    ratePercent: rng.pick(['0.5', '2.5', '5', '10', '12.34', '50']),
    holdDays: rng.chance(0.5) ? 0 : rng.int(1, 30),
    capPerReferred: rng.chance(0.6) ? null : rng.pick(['300', '1500', '5000']),
  };
  await setReferralProgramme(sim, referral);
}

/** The administrator sets the referral programme (PUT admin/referrals/settings). */
export async function setReferralProgramme(sim: Sim, referral: SimReferralSettings): Promise<void> {
  const answer = await sim.admin.api('admin/referrals/settings', { method: 'PUT', body: referral });
  if (answer.kind !== 'answered' || answer.status !== 200)
    throw new Error(`could not set the referral programme: ${said(answer)} ${answer.kind === 'answered' ? answer.text : ''}`);
  sim.world.referral = referral;
}

/** The administrator's payment settings, with only the provider changed. */
export async function setProvider(sim: Sim, provider: PaymentProviderName): Promise<Answer> {
  const current = await sim.admin.api('admin/settings/payment');
  if (current.kind !== 'answered' || current.status !== 200) throw new Error(`could not read the payment settings: ${said(current)}`);
  const { mode, minDeposit, maxDeposit } = current.body.data;
  const answer = await sim.admin.api('admin/settings/payment', { method: 'PUT', body: { provider, mode, minDeposit, maxDeposit } });
  if (answer.kind === 'answered' && answer.status === 200) sim.world.provider = provider;
  return answer;
}

export async function switchProvider(sim: Sim): Promise<string> {
  const next: PaymentProviderName = sim.world.provider === 'paystack' ? 'flutterwave' : 'paystack';
  tally(sim, `payment provider switched to ${next}`);
  const answer = await setProvider(sim, next);
  expect(sim, 'PUT admin/settings/payment', answer, [200]);
  return `the administrator switches card payments to ${next}: ${said(answer)}`;
}

/** A new user signs up through another user's referral link. */
export async function referredSignUp(sim: Sim): Promise<string> {
  const referrer = sim.rng.pick(sim.world.users);
  // Some confirm their address only later: their deposits until then earn the referrer nothing.
  return signUp(sim, { referrer, confirm: !sim.rng.chance(0.3) });
}

type Attempt = 'same card' | 'same bank account' | 'same address' | 'same browser';

/**
 * A user makes a second account through their own link: from their own address or browser, or paying with
 * their own card or sending from their own bank account (after paying with it themselves, so the shop has seen it).
 */
export async function selfReferral(sim: Sim): Promise<string> {
  const { rng, world } = sim;
  const referrer = rng.pick(world.users);
  const attempt = rng.weighted<Attempt>({
    'same card': 3,
    'same bank account': world.provider === 'paystack' ? 2 : 0,
    'same address': 1,
    'same browser': referrer.device ? 1 : 0,
  });
  tally(sim, `self-referral (${attempt})`);
  if (attempt === 'same browser')
    return `self-referral from user ${referrer.id}'s browser: ${await signUp(sim, { referrer, device: referrer.device ?? undefined, deposit: true })}`;
  if (attempt === 'same address') return `self-referral from user ${referrer.id}'s address: ${await signUp(sim, { referrer, ip: referrer.ip, deposit: true })}`;
  if (attempt === 'same card') {
    const card = `card of ${referrer.email}`;
    const first = await deposit(sim, { payer: referrer, card, paid: true });
    const second = await signUp(sim, { referrer, deposit: false });
    const friend = world.users[world.users.length - 1];
    return `self-referral with user ${referrer.id}'s card: ${first}; ${second}; ${await deposit(sim, { payer: friend, card })}`;
  }
  const account = `account of ${referrer.email}`;
  const first = await bankTransfer(sim, { payer: referrer, sender: account, delivered: true });
  const second = await signUp(sim, { referrer, deposit: false });
  const friend = world.users[world.users.length - 1];
  return `self-referral from user ${referrer.id}'s bank account: ${first}; ${second}; ${await bankTransfer(sim, { payer: friend, sender: account })}`;
}

/** The user's dedicated account number, asked for the first time (only while the shop takes payments with Paystack). */
async function accountNumberOf(sim: Sim, user: SimUser): Promise<string | null> {
  if (user.accountNumber) return user.accountNumber;
  const answer = await user.session.api('user/dedicated-account', { body: {} });
  expect(sim, 'POST user/dedicated-account', answer, [200, 400]);
  if (answer.kind !== 'answered' || answer.status !== 200) return null;
  user.accountNumber = answer.body.data.accountNumber as string;
  return user.accountNumber;
}

const TRANSFER_NAIRA = [500, 3_000, 7_500, 20_000, 60_000];

interface TransferOptions {
  payer?: SimUser;
  /** The sending account's name (the sandbox's account of that name); by default the payer's own. */
  sender?: string;
  /** Its webhook delivered at once (the first half of a self-referral attempt). */
  delivered?: boolean;
}

type TransferWebhook = 'normal' | 'duplicate' | 'delay' | 'drop';

/**
 * A bank transfer to the payer's dedicated account: Paystack sends charge.success (on time, twice, late,
 * or not at all: the drain delivers what was never answered 200, as Paystack retries).
 */
export async function bankTransfer(sim: Sim, options: TransferOptions = {}): Promise<string> {
  const { rng, world } = sim;
  const payer = options.payer ?? rng.pick(world.users);
  const accountNumber = await accountNumberOf(sim, payer);
  if (!accountNumber) return `bank transfer by user ${payer.id}: no account number (${world.provider} takes the payments)`;
  const mode = options.delivered ? 'normal' : rng.weighted<TransferWebhook>({ normal: 5, duplicate: 2, delay: 2, drop: 1 });
  tally(sim, `bank transfer (webhook ${mode})`);
  await control(sim.stack.paystackUrl, { webhookMode: mode, webhookTimes: 2, webhookDelayMs: rng.int(100, 3000) });
  const naira = rng.pick(TRANSFER_NAIRA);
  const sender = options.sender ?? `account of ${payer.email}`;
  const response = await fetch(`${sim.stack.paystackUrl}/__transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountNumber, amount: naira * 100, senderAccount: sender }),
  });
  await control(sim.stack.paystackUrl, { webhookMode: 'normal' });
  if (!response.ok) throw new Error(`the sandbox Paystack refused a transfer to ${accountNumber}: ${response.status} ${await response.text()}`);
  const { reference } = (await response.json()) as { reference: string };
  const transfer: SimDeposit = {
    userId: payer.id,
    reference,
    provider: 'paystack',
    channel: 'bank_transfer',
    amountKobo: Number(nairaToKobo(String(naira))),
    instrument: `bank:${sender}`,
    payload: null,
    outcome: 'success',
  };
  world.deposits.push(transfer);
  const named = options.sender ? ` from ${options.sender}` : '';
  return `bank transfer ₦${naira} by user ${payer.id}${named} (${reference}, webhook ${mode})`;
}

/** A held commission's hold ends ("time passing", see the top of this file) and the cron releases it, sometimes racing a reversal. */
export async function holdEnds(sim: Sim): Promise<string> {
  const ids = sim.world.users.map((user) => user.id);
  const { rows } = await sim.pg.query<{ id: string; reference: string }>(
    `
    select c.id::text, p.reference from referral_commissions c join payment_intents p on p.id = c.payment_intent_id
    where c.referrer_id = any($1::int[]) and c.released_at is null order by c.id`,
    [ids],
  );
  if (rows.length === 0) return 'hold ends: no commission held';
  const held = sim.rng.pick(rows);
  // Time passing: the hold's days are over (see the top of this file).
  await sim.pg.query(`update referral_commissions set release_at = now() - interval '1 second' where id = $1 and released_at is null`, [held.id]);
  const racing = sim.world.reversalEvents.filter((event) => event.reference === held.reference && event.delivery !== 'delivered');
  const race = racing.length > 0 && sim.rng.chance(0.6) ? sim.rng.pick(racing) : null;
  tally(sim, race ? 'hold ends while a reversal arrives' : 'hold ends');
  const hangUp = takeHangUp(sim);
  const [cron, delivered] = await Promise.all([runCron(sim, hangUp), race ? deliver(sim, race) : Promise.resolve(null)]);
  expect(sim, 'cron', cron, [200]);
  return `the hold of commission ${held.id} on ${held.reference} ends: cron ${said(cron)}${delivered ? `, ${race?.record.event} delivered at once: ${said(delivered)}` : ''}`;
}

/** The drain: every held commission of the seed's referrers reaches its release (time passing), then the cron runs. */
export async function releaseEveryHold(sim: Sim): Promise<void> {
  await sim.pg.query(`update referral_commissions set release_at = now() - interval '1 second' where referrer_id = any($1::int[]) and released_at is null`, [
    sim.world.users.map((user) => user.id),
  ]);
}

/**
 * The drain, as Paystack retrying: each transfer of the seed the shop has not credited (its webhook dropped, or
 * answered 5xx when a cut connection failed the credit half-way, leaving a pending intent) gets its charge.success
 * delivered again, up to 5 times. Answers what is still not credited.
 */
export async function deliverEveryTransfer(sim: Sim): Promise<string[]> {
  const transfers = sim.world.deposits.filter((deposit) => deposit.channel === 'bank_transfer');
  if (transfers.length === 0) return [];
  const missing = async () => {
    const { rows } = await sim.pg.query<{ reference: string }>(
      `select reference from payment_intents where status = 'success' and reference = any($1::text[])`,
      [transfers.map((transfer) => transfer.reference)],
    );
    const recorded = new Set(rows.map((row) => row.reference));
    return transfers.filter((transfer) => !recorded.has(transfer.reference));
  };
  let left = await missing();
  if (left.length === 0) return [];
  const log = await providerWebhooks(sim, 'paystack');
  for (let attempt = 1; attempt <= 5 && left.length > 0; attempt += 1) {
    for (const transfer of left) {
      const record = log.find((webhook) => webhook.event === 'charge.success' && webhook.reference === transfer.reference);
      if (!record) return [`the sandbox Paystack has no charge.success for transfer ${transfer.reference}`];
      const answer = await call(`${sim.stack.url}/api/v1/webhooks/paystack`, {
        raw: record.body,
        headers: { 'content-type': 'application/json', 'x-paystack-signature': record.signature },
      });
      expect(sim, 'POST webhooks/paystack (a transfer, retried)', answer, [200]);
    }
    left = await missing();
  }
  // One the provider reversed in full before the shop heard of it is no money of the shop's: it may never record it.
  return left
    .filter((transfer) => !reversedInFullAtProvider(sim.world, transfer))
    .map((transfer) => `transfer ${transfer.reference} by user ${transfer.userId} is still not credited after 5 more deliveries of its webhook`);
}
