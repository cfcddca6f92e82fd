// The latest deliveries across the account's webhooks: what was sent where, whether the endpoint took it, is being
// retried or was given up, and the body we signed, so a reseller can match the log against their own server's.

import { CellText, type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { formatDateTime } from '@/lib/format';
import type { Webhook, WebhookDelivery } from './api/get-webhooks';

type Tone = Parameters<typeof Badge>[0]['tone'];

/** Sending with no try yet is still waiting its turn; sending after a try has failed at least once and waits to go again. */
function deliveryState(delivery: WebhookDelivery): { label: string; tone: Tone } {
  if (delivery.state === 'delivered') return { label: 'Delivered', tone: 'green' };
  if (delivery.state === 'failed') return { label: 'Failed', tone: 'red' };
  if (delivery.attempts > 0) return { label: 'Retrying', tone: 'amber' };
  return { label: 'Queued', tone: 'slate' };
}

/** What the endpoint answered, or why it could not: the error names the status when there was one. */
function deliveryResult(delivery: WebhookDelivery): string {
  if (delivery.error) return delivery.error;
  if (delivery.responseStatus !== null) return `HTTP ${delivery.responseStatus}`;
  return delivery.attempts === 0 ? 'Not sent yet' : '—';
}

/** Host and path: the scheme is always https, and a query string rarely tells two endpoints apart. */
function shortUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return url;
  }
}

function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** What the event was about, read from the body we sent, so the log can be scanned without opening each one. */
function deliverySubject(body: string | null): string | null {
  if (body === null) return null;
  try {
    const { event, data } = JSON.parse(body);
    if (event === 'order.status') return `Order #${data.order}: ${data.status}`;
    if (event === 'refill.status') return `Refill #${data.refill} of order #${data.order}: ${data.status}`;
    if (event === 'balance.low') return `Balance ${data.balance} ${data.currency}, below ${data.threshold}`;
    return null;
  } catch {
    return null;
  }
}

const EventCell = ({ delivery }: { delivery: WebhookDelivery }) => {
  const subject = deliverySubject(delivery.body);
  return (
    <span className="block min-w-0">
      <span className="block truncate font-mono text-xs font-semibold text-slate-900">{delivery.event}</span>
      {subject ? <span className="block text-xs text-slate-600">{subject}</span> : null}
    </span>
  );
};

function DeliveryBody({ body }: { body: string | null }) {
  // A delivery is given its body when it is queued; until then there is nothing to show.
  if (body === null) return <span className="text-slate-500">—</span>;
  return (
    <details className="text-left">
      <summary className="cursor-pointer text-sm font-medium text-brand-700">Body</summary>
      <pre className="mt-2 max-h-64 max-w-full overflow-auto rounded-lg bg-slate-900 p-3 text-xs break-all whitespace-pre-wrap text-slate-100 md:max-w-sm">
        {prettyBody(body)}
      </pre>
    </details>
  );
}

const When = ({ delivery }: { delivery: WebhookDelivery }) => (
  <span title={delivery.lastAttemptAt ? `Last tried ${formatDateTime(delivery.lastAttemptAt)}` : formatDateTime(delivery.createdAt)}>
    <TimeAgo at={delivery.createdAt} />
  </span>
);

const StateBadge = ({ delivery }: { delivery: WebhookDelivery }) => {
  const { label, tone } = deliveryState(delivery);
  return <Badge tone={tone}>{label}</Badge>;
};

export function WebhookDeliveryLog({ deliveries, endpoints }: { deliveries: WebhookDelivery[]; endpoints: Webhook[] }) {
  const urls = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.url]));
  const endpointOf = (delivery: WebhookDelivery) => {
    const url = urls.get(delivery.endpointId);
    return url ? shortUrl(url) : `Webhook ${delivery.endpointId}`;
  };
  const columns: ReadonlyArray<Column<WebhookDelivery>> = [
    { key: 'event', header: 'Event', cell: (d) => <EventCell delivery={d} /> },
    { key: 'endpoint', header: 'Endpoint', cell: (d) => <CellText text={endpointOf(d)} className="max-w-[12rem] font-mono text-xs" /> },
    { key: 'state', header: 'State', cell: (d) => <StateBadge delivery={d} /> },
    { key: 'result', header: 'Result', cell: (d) => <CellText text={deliveryResult(d)} className="max-w-[14rem]" /> },
    { key: 'attempts', header: 'Tries', cell: (d) => d.attempts, className: 'text-right' },
    { key: 'when', header: 'When', cell: (d) => <When delivery={d} /> },
    { key: 'body', header: 'Body', headerHidden: true, cell: (d) => <DeliveryBody body={d.body} /> },
  ];

  return (
    <section className="mt-6" aria-labelledby="webhook-deliveries-title">
      <h3 id="webhook-deliveries-title" className="font-semibold text-slate-900">
        Recent deliveries
      </h3>
      <p className="mt-0.5 text-sm text-slate-600">The latest 30 across your webhooks, newest first. Deliveries on their way update here by themselves.</p>
      <div className="mt-3">
        <ResponsiveTable
          columns={columns}
          rows={deliveries}
          rowKey={(d) => d.id}
          caption="Recent deliveries"
          empty={<p className="rounded-xl border border-dashed border-slate-300 p-4 text-sm text-slate-600">Nothing sent yet. Send a test to see one here.</p>}
          renderCard={(d) => (
            <div className="space-y-1.5 text-sm">
              <div className="flex items-center justify-between gap-3">
                <EventCell delivery={d} />
                <StateBadge delivery={d} />
              </div>
              <p className="font-mono text-xs break-all text-slate-600">{endpointOf(d)}</p>
              <p className="break-words text-slate-700">{deliveryResult(d)}</p>
              <p className="text-xs text-slate-500">
                {d.attempts === 1 ? '1 try' : `${d.attempts} tries`} · <When delivery={d} />
              </p>
              <DeliveryBody body={d.body} />
            </div>
          )}
        />
      </div>
    </section>
  );
}
