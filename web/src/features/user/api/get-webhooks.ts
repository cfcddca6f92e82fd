// GET user/webhooks: the user's webhook endpoints, without their secrets, and the latest deliveries across them, newest first.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';

export const getWebhooks = (signal?: AbortSignal) => read(client.user.webhooks.$get(undefined, { init: { signal } }));
type WebhooksAnswer = Awaited<ReturnType<typeof getWebhooks>>;
export type Webhook = WebhooksAnswer['data'][number];
export type WebhookDelivery = WebhooksAnswer['deliveries'][number];

export const webhookKeys = { all: ['webhooks'] as const };

/** A queued delivery goes out within minutes, and a test within seconds: the log follows it while the page is open. */
const DELIVERY_POLL_MS = 5_000;
/** Not yet tried: its first answer comes within seconds. A retry waits up to two hours, not worth watching for. */
const isAwaitingFirstTry = (delivery: WebhookDelivery) => delivery.state === 'new' || (delivery.state === 'sending' && delivery.attempts === 0);

export const webhooksQuery = queryOptions({
  queryKey: webhookKeys.all,
  queryFn: async ({ signal }) => {
    const { data, deliveries } = await getWebhooks(signal);
    return { endpoints: data, deliveries };
  },
  refetchInterval: (query) => (query.state.data?.deliveries.some(isAwaitingFirstTry) ? DELIVERY_POLL_MS : false),
  refetchIntervalInBackground: false,
});

export const useWebhooks = () => useQuery(webhooksQuery);
