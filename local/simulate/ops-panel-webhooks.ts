// The sandbox panel's own webhooks (local/fakes/smm-webhooks.ts): some seeds give the shop's provider a signing secret
// and have the panel send order.status webhooks for every change, so orders close from webhooks and from polling at
// once; a step then sends one of those deliveries again as a panel or a network would: several copies at once, an old
// one after newer ones, or the exact bytes and header of an earlier try. None may move money twice or reopen an order
// (the books are checked after every step, and the closed orders against the panel after the drain).
import { webhookSignature } from '../fakes/smm-webhooks';
import { type Answer, call, said } from './http';
import { control, expect, fresh, type Sim, takeHangUp, tally } from './world';

/** How far the shop lets a signature's time be from its own (services/orders/provider-webhooks.ts). */
const MAX_SKEW_SECONDS = 300;

/** Switches the panel's webhooks on (a new secret, given to the shop and the panel) or off for the seed. */
export async function setUpPanelWebhooks(sim: Sim, on: boolean): Promise<void> {
  const { admin, stack, world } = sim;
  const listed = await admin.api('admin/providers');
  if (listed.kind !== 'answered' || listed.status !== 200) throw new Error(`could not list the providers: ${said(listed)}`);
  const providers = listed.body.data as Array<{ id: number; apiUrl: string }>;
  const provider = providers.find((candidate) => candidate.apiUrl.startsWith(stack.smmProviderUrl));
  if (!provider) throw new Error(`no provider points at the sandbox panel ${stack.smmProviderUrl}`);
  const secret = on ? fresh(world, 'whsec') : null;
  const updated = await admin.api(`admin/providers/${provider.id}`, { method: 'PUT', body: { webhookSecret: secret } });
  if (updated.kind !== 'answered' || updated.status !== 200) throw new Error(`could not set provider ${provider.id}'s webhook secret: ${said(updated)}`);
  const url = `${stack.url}/api/v1/webhooks/providers/${provider.id}`;
  await control(stack.smmProviderUrl, { webhook: secret === null ? null : { url, secret } });
  world.panelWebhooks = secret === null ? null : { url, secret };
}

interface SentWebhook {
  id: number;
  body: string;
  signature: string;
  sentAt: string;
}

const VARIANTS = ['copies at once', 'an old one late', 'the same bytes and signature'] as const;

/** Sends a delivery the panel already sent once more: duplicated, reordered, or replayed exactly. */
export async function replayPanelWebhook(sim: Sim): Promise<string> {
  const { rng, stack, world } = sim;
  const hooks = world.panelWebhooks;
  if (hooks === null) return 'panel webhook replay: the panel sends none this seed';
  const { webhooks } = (await (await fetch(`${stack.smmProviderUrl}/__webhooks`)).json()) as { webhooks: SentWebhook[] };
  if (webhooks.length === 0) return 'panel webhook replay: none sent yet';
  const variant = rng.pick(VARIANTS);
  tally(sim, `panel webhook replay (${variant})`);
  let hangUp = takeHangUp(sim);
  const send = (webhook: SentWebhook, signature: string) => {
    // Only the first request is hung up on, as for the other operations.
    const abortAfterMs = hangUp;
    hangUp = undefined;
    return call(hooks.url, { raw: webhook.body, headers: { 'content-type': 'application/json', 'x-webhook-signature': signature }, abortAfterMs });
  };
  let webhook: SentWebhook;
  let answers: Answer[];
  if (variant === 'copies at once') {
    webhook = rng.pick(webhooks.slice(-10));
    answers = await Promise.all(Array.from({ length: rng.int(2, 4) }, () => send(webhook, webhookSignature(hooks.secret, webhook.body))));
    for (const answer of answers) expect(sim, 'POST webhooks/providers (copy)', answer, [200]);
  } else if (variant === 'an old one late') {
    // Likely about an order that moved on or closed since: the shop must not step it back or reopen it.
    webhook = rng.pick(webhooks);
    answers = [await send(webhook, webhookSignature(hooks.secret, webhook.body))];
    expect(sim, 'POST webhooks/providers (late)', answers[0], [200]);
  } else {
    webhook = rng.pick(webhooks);
    const age = Date.now() / 1000 - Number(/t=(\d+)/.exec(webhook.signature)?.[1] ?? 0);
    answers = [await send(webhook, webhook.signature)];
    // Within the window it is one more copy; past it, a replay the signature's time gives away. Near the edge, either.
    const expected = age < MAX_SKEW_SECONDS - 10 ? [200] : age > MAX_SKEW_SECONDS + 10 ? [401] : [200, 401];
    expect(sim, 'POST webhooks/providers (replayed)', answers[0], expected);
  }
  return `panel webhook replay, ${variant}: delivery ${webhook.id} of ${webhook.sentAt}: ${answers.map(said).join(', ')}`;
}
