// Money the payment providers take back: refunds (full or partial) of a paid deposit or bank transfer,
// disputes (chargebacks) opened for all or part of one, and their resolution: won by the shop, lost, or
// accepted for less. Each is made at the sandbox provider (local/fakes/paystack-reversals.ts,
// flutterwave-reversals.ts), which answers the signed webhook it sends about it.
//
// The simulator is the provider's delivery: the sandbox Paystack holds reversal webhooks (its webhook mode
// is "drop" while the simulator asks for one), and the simulator delivers them itself, at once or steps
// later, in any order across one payment's events, replayed, several at once, or while the database is
// cut or the connection hung up (then, as a provider retrying, again later until one is answered 200). The
// sandbox Flutterwave has no webhook controls: it delivers each event as it happens, and the simulator
// replays and re-delivers those. Each event's delivery state (world.ts Delivery) is what the books are
// checked against (invariants-money.ts): a payment all of whose events were delivered or never sent must
// stand exactly where those delivered events put it.
import { type Answer, call, said } from './http';
import { claimedBy, eventsOf, type ProviderWebhook, readReversalEvent } from './provider-truth';
import { control, expect, type PaymentProviderName, type Sim, type SimDeposit, type SimReversalEvent, takeHangUp, tally } from './world';

const providerUrl = (sim: Sim, provider: PaymentProviderName) => (provider === 'paystack' ? sim.stack.paystackUrl : sim.stack.flutterwaveUrl);

/** A POST to a sandbox provider's test endpoint: its status and answer. */
async function atProvider(sim: Sim, provider: PaymentProviderName, path: string, body: Record<string, unknown>) {
  const response = await fetch(`${providerUrl(sim, provider)}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the fakes' answers are read field by field below
  return { status: response.status, body: (await response.json()) as any };
}

const naira = (kobo: number) => (kobo / 100).toFixed(2);

/**
 * Makes the provider reverse something while its webhook is held (Paystack) or sent as it happens
 * (Flutterwave), and records the event it answers; null when the provider refused.
 */
async function reverseAtProvider(
  sim: Sim,
  provider: PaymentProviderName,
  path: string,
  body: Record<string, unknown>,
): Promise<{ event: SimReversalEvent; answer: Record<string, unknown> } | { refused: string }> {
  if (provider === 'paystack') await control(sim.stack.paystackUrl, { webhookMode: 'drop' });
  let answer: Awaited<ReturnType<typeof atProvider>>;
  try {
    answer = await atProvider(sim, provider, path, body);
  } finally {
    if (provider === 'paystack') await control(sim.stack.paystackUrl, { webhookMode: 'normal' });
  }
  if (answer.status !== 200) return { refused: `${answer.status} ${String(answer.body?.error ?? answer.body?.message ?? '').slice(0, 80)}` };
  const record = answer.body.webhook as ProviderWebhook;
  const delivered = record.deliveries.some((delivery) => delivery.status === 200);
  const event: SimReversalEvent = {
    ...readReversalEvent(provider, record),
    delivery: delivered ? 'delivered' : record.deliveries.length > 0 ? 'doubt' : 'pending',
  };
  sim.world.reversalEvents.push(event);
  return { event, answer: answer.body };
}

/**
 * A paid deposit or transfer of this seed to reverse. Two times in five one already refunded or disputed (so
 * one payment gathers several reversals whose events can cross); otherwise mostly one the shop credited, one
 * in five times any (the shop may not have heard of it yet).
 */
async function pickPaid(sim: Sim): Promise<SimDeposit | null> {
  const paid = sim.world.deposits.filter((deposit) => deposit.outcome === 'success');
  if (paid.length === 0) return null;
  const reversed = paid.filter((deposit) => eventsOf(sim.world, deposit).length > 0);
  if (reversed.length > 0 && sim.rng.chance(0.4)) return sim.rng.pick(reversed);
  const { rows } = await sim.pg.query<{ reference: string }>(`select reference from payment_intents where status = 'success' and reference = any($1::text[])`, [
    paid.map((deposit) => deposit.reference),
  ]);
  const credited = new Set(rows.map((row) => row.reference));
  const pool = paid.filter((deposit) => credited.has(deposit.reference));
  return sim.rng.pick(pool.length > 0 && sim.rng.chance(0.8) ? pool : paid);
}

/** What is left to refund at the provider: paid less refunds and lost disputes (an open dispute holds none of it). */
function leftAtProvider(sim: Sim, deposit: SimDeposit): number {
  const taken = eventsOf(sim.world, deposit).filter((event) => event.state === 'taken' || event.state === 'lost');
  const latest = new Map<string, SimReversalEvent>();
  for (const event of taken) latest.set(event.key, event);
  return Math.max(0, deposit.amountKobo - [...latest.values()].reduce((sum, event) => sum + event.amountKobo, 0));
}

/** Part of `kobo` (whole naira), at least ₦1: a partial refund or dispute. */
const partOf = (sim: Sim, kobo: number) => Math.max(100, Math.floor((kobo * sim.rng.int(5, 95)) / 100 / 100) * 100);

export async function refund(sim: Sim): Promise<string> {
  const deposit = await pickPaid(sim);
  if (!deposit) return 'refund: nothing paid yet';
  const left = leftAtProvider(sim, deposit);
  const full = left === 0 || sim.rng.chance(0.45);
  const amount = full ? left : partOf(sim, left);
  tally(sim, `refund (${full ? 'full' : 'partial'}, ${deposit.provider})`);
  const body =
    deposit.provider === 'paystack'
      ? { reference: deposit.reference, ...(full ? {} : { amount }) }
      : { tx_ref: deposit.reference, ...(full ? {} : { amount: naira(amount) }) };
  const made = await reverseAtProvider(sim, deposit.provider, '/__refund', body);
  if ('refused' in made) return `refund of ${deposit.reference}: the provider refused (${made.refused})`;
  return `refund of ₦${naira(made.event.amountKobo)} of ${deposit.reference} (${deposit.provider})${await maybeDeliverNow(sim, made.event)}`;
}

export async function openDispute(sim: Sim): Promise<string> {
  const deposit = await pickPaid(sim);
  if (!deposit) return 'dispute: nothing paid yet';
  const left = leftAtProvider(sim, deposit);
  const whole = left === 0 || sim.rng.chance(0.5);
  const amount = whole ? left : partOf(sim, left);
  tally(sim, `dispute opened (${whole ? 'all that is left' : 'part'}, ${deposit.provider})`);
  const made =
    deposit.provider === 'paystack'
      ? await reverseAtProvider(sim, 'paystack', '/__dispute', { reference: deposit.reference, ...(whole ? {} : { amount }) })
      : await reverseAtProvider(sim, 'flutterwave', '/__chargeback', { tx_ref: deposit.reference, ...(whole ? {} : { amount: naira(amount) }) });
  if ('refused' in made) return `dispute of ${deposit.reference}: the provider refused (${made.refused})`;
  const id = Number((made.answer.dispute ?? made.answer.chargeback) && ((made.answer.dispute ?? made.answer.chargeback) as { id: number }).id);
  sim.world.disputes.push({
    provider: deposit.provider,
    id,
    reference: deposit.reference,
    amountKobo: made.event.amountKobo,
    declined: false,
    resolved: false,
  });
  return `dispute ${id} of ₦${naira(made.event.amountKobo)} of ${deposit.reference} (${deposit.provider})${await maybeDeliverNow(sim, made.event)}`;
}

type Verdict = 'won' | 'lost' | 'accepted for less' | 'contested';

export async function resolveDispute(sim: Sim): Promise<string> {
  const open = sim.world.disputes.filter((dispute) => !dispute.resolved);
  if (open.length === 0) return 'dispute resolution: none open';
  const dispute = sim.rng.pick(open);
  const verdict = sim.rng.weighted<Verdict>({
    won: 4,
    lost: 3,
    'accepted for less': dispute.amountKobo > 100 ? 2 : 0,
    contested: dispute.provider === 'flutterwave' && !dispute.declined ? 1.5 : 0,
  });
  tally(sim, `dispute ${verdict} (${dispute.provider})`);
  const accepted = verdict === 'accepted for less' ? partOf(sim, dispute.amountKobo) : null;
  const body =
    dispute.provider === 'paystack'
      ? {
          id: dispute.id,
          resolution: verdict === 'won' ? 'declined' : verdict === 'lost' ? sim.rng.pick(['merchant-accepted', 'auto-accepted']) : 'merchant-accepted',
          ...(accepted === null ? {} : { refund_amount: accepted }),
        }
      : {
          id: dispute.id,
          status: verdict === 'won' ? 'won' : verdict === 'contested' ? 'declined' : sim.rng.pick(['lost', 'accepted']),
          ...(accepted === null ? {} : { amount: naira(accepted) }),
        };
  const made = await reverseAtProvider(sim, dispute.provider, dispute.provider === 'paystack' ? '/__dispute/resolve' : '/__chargeback/resolve', body);
  if ('refused' in made) throw new Error(`the sandbox ${dispute.provider} refused to resolve dispute ${dispute.id} (${JSON.stringify(body)}): ${made.refused}`);
  if (verdict === 'contested') dispute.declined = true;
  else dispute.resolved = true;
  return `dispute ${dispute.id} of ${dispute.reference} ${verdict}${accepted === null ? '' : ` (₦${naira(accepted)})`}${await maybeDeliverNow(sim, made.event)}`;
}

/** Half the time a held event is delivered as soon as it is made (as a provider mostly does); otherwise it waits. */
async function maybeDeliverNow(sim: Sim, event: SimReversalEvent): Promise<string> {
  if (event.delivery !== 'pending') return `, sent by the provider: ${event.delivery}`;
  if (!sim.rng.chance(0.5)) return ', its webhook held';
  const answer = await deliver(sim, event, takeHangUp(sim));
  return `, delivered: ${said(answer)}`;
}

/** Posts a reversal webhook to the shop, exact bytes and signature, and notes how far it got. */
export async function deliver(sim: Sim, event: SimReversalEvent, abortAfterMs?: number): Promise<Answer> {
  const header = event.provider === 'paystack' ? 'x-paystack-signature' : 'verif-hash';
  const answer = await call(`${sim.stack.url}/api/v1/webhooks/${event.provider}`, {
    raw: event.record.body,
    headers: { 'content-type': 'application/json', [header]: event.record.signature },
    abortAfterMs,
  });
  expect(sim, `POST webhooks/${event.provider} (${event.record.event})`, answer, [200]);
  if (answer.kind === 'answered' && answer.status === 200) event.delivery = 'delivered';
  else if (event.delivery === 'pending') event.delivery = 'doubt';
  return answer;
}

function shuffle<T>(sim: Sim, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = sim.rng.int(0, i);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

type Shape = 'in turn' | 'all at once' | 'each twice at once';

/**
 * The provider delivers (or retries) one payment's reversal webhooks: those not yet answered 200 in a random
 * order, with some already delivered sent again, one after another or all at once.
 */
export async function deliverReversals(sim: Sim): Promise<string> {
  const { world, rng } = sim;
  const waiting = world.reversalEvents.filter((event) => event.delivery !== 'delivered');
  const replaying = waiting.length === 0 || rng.chance(0.2);
  const about = replaying ? (world.reversalEvents.length > 0 ? rng.pick(world.reversalEvents) : null) : rng.pick(waiting);
  if (!about) return 'reversal webhooks: none made yet';
  const ofPayment = world.reversalEvents.filter((event) => event.provider === about.provider && event.reference === about.reference);
  const chosen = ofPayment.filter((event) => event.delivery !== 'delivered' || rng.chance(0.3));
  if (chosen.length === 0) chosen.push(about);
  const order = shuffle(sim, chosen);
  const shape = rng.weighted<Shape>({ 'in turn': 5, 'all at once': 3, 'each twice at once': 2 });
  tally(sim, `reversal webhooks ${replaying ? 'replayed' : 'delivered'} ${shape}`);
  const hangUp = takeHangUp(sim);
  let answers: Answer[];
  if (shape === 'in turn') {
    answers = [];
    for (const [i, event] of order.entries()) answers.push(await deliver(sim, event, i === 0 ? hangUp : undefined));
  } else {
    const copies = shape === 'all at once' ? order : order.flatMap((event) => [event, event]);
    answers = await Promise.all(copies.map((event, i) => deliver(sim, event, i === 0 ? hangUp : undefined)));
  }
  const names = order.map((event) => `${event.record.event}#${event.record.id}`).join(', ');
  return `reversal webhooks of ${about.reference} (${shape}: ${names}): ${answers.map(said).join(', ')}`;
}

/** The drain: every reversal webhook not yet answered 200 is sent again until it is (a provider retrying). */
export async function deliverEveryReversal(sim: Sim): Promise<string[]> {
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const waiting = sim.world.reversalEvents.filter((event) => event.delivery !== 'delivered');
    if (waiting.length === 0) return [];
    for (const event of shuffle(sim, waiting)) await deliver(sim, event);
  }
  return sim.world.reversalEvents
    .filter((event) => event.delivery !== 'delivered')
    .map((event) => `${event.provider}'s ${event.record.event} #${event.record.id} about ${event.reference} was never answered 200 in 5 deliveries`);
}

/** What the delivered events of a deposit claim of it (for the step's description and the checks). */
export const deliveredClaim = (sim: Sim, deposit: SimDeposit) =>
  claimedBy(
    deposit.amountKobo,
    eventsOf(sim.world, deposit).filter((event) => event.delivery === 'delivered'),
  );
