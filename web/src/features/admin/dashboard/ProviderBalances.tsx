// Provider balances and health: warnings for a low balance, a provider not answering readably and
// orders whose provider answers cannot be acted on, then each provider's balance and state.

import { Link } from 'react-router-dom';
import { Icon } from '@/components/Icon';
import { Panel } from '@/components/Panel';
import { SkeletonRows } from '@/components/Skeleton';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { formatCount } from '@/lib/format';
import { cx } from '@/lib/hooks';
import type { DashboardSectionProps } from './sectionProps';

type ProviderView = NonNullable<DashboardSectionProps['data']>['providers'][number];

/**
 * A balance never read, and when it will be: the cron asks every enabled provider not checked yet at
 * its next run (every 2 minutes, wrangler.toml), and again after a failed try.
 */
function uncheckedBalanceText(p: ProviderView): string {
  if (!p.enabled) return 'Balance not checked: provider switched off';
  if (p.lastError) return 'Balance not checked yet: the last try failed; tried again within 2 minutes';
  return 'Balance not checked yet: checked within 2 minutes';
}

export function ProviderBalances({ data, loading }: DashboardSectionProps) {
  const providers = data?.providers ?? [];
  const low = providers.filter((p) => p.lowBalance).length;
  const health = new Map((data?.providerHealth ?? []).map((h) => [h.id, h]));
  const unhealthy = [...health.values()].filter((h) => h.unhealthySince !== null);
  const needingAttention = [...health.values()].reduce((total, h) => total + h.needsAttention, 0);
  return (
    <Panel
      title="Provider balances"
      action={
        <Link to="/admin/services?tab=providers" className="link text-sm">
          Manage providers
        </Link>
      }
    >
      {low > 0 ? (
        <p role="alert" className="mt-3 flex items-center gap-2 rounded-xl bg-rose-50 px-3 py-2 text-sm text-rose-800">
          <Icon name="alert" className="h-4 w-4 shrink-0" /> {low === 1 ? 'One provider is' : `${low} providers are`} below the low-balance alert. Orders may
          fail until it is topped up.
        </p>
      ) : null}
      {unhealthy.length > 0 ? (
        <p role="alert" className="mt-3 flex items-center gap-2 rounded-xl bg-rose-50 px-3 py-2 text-sm text-rose-800">
          <Icon name="alert" className="h-4 w-4 shrink-0" /> {unhealthy.map((h) => h.name).join(', ')} {unhealthy.length === 1 ? 'is' : 'are'} not answering
          readably. Their orders wait; everything else goes on.
        </p>
      ) : null}
      {needingAttention > 0 ? (
        <Link
          to="/admin/services?tab=warnings"
          className="mt-3 flex items-center gap-2 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 hover:bg-amber-100"
        >
          <Icon name="alert" className="h-4 w-4 shrink-0" /> {formatCount(needingAttention)} {needingAttention === 1 ? 'order needs' : 'orders need'} attention:
          the provider&apos;s answers about {needingAttention === 1 ? 'it' : 'them'} cannot be acted on.
        </Link>
      ) : null}
      {loading ? (
        <SkeletonRows rows={3} className="mt-3 h-12" />
      ) : providers.length === 0 ? (
        <p className="py-6 text-sm text-slate-500">No providers yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {providers.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-3 py-2.5">
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">
                  {p.name} {p.enabled ? null : <Badge tone="slate">Off</Badge>}
                </p>
                <p className="text-xs text-slate-500">
                  {p.balanceCheckedAt ? (
                    <>
                      Checked <TimeAgo at={p.balanceCheckedAt} />
                    </>
                  ) : (
                    uncheckedBalanceText(p)
                  )}
                  {p.lowBalanceAlert ? ` · alert below ${providerMoney(p.lowBalanceAlert, p.currency)}` : ''}
                </p>
                {health.get(p.id)?.unhealthySince ? (
                  <p className="text-xs text-rose-700" title={health.get(p.id)?.lastError ?? undefined}>
                    Not answering since <TimeAgo at={health.get(p.id)!.unhealthySince!} />
                  </p>
                ) : null}
              </div>
              <div className="shrink-0 text-right">
                <p className={cx('font-semibold tabular-nums', p.lowBalance ? 'text-rose-700' : 'text-slate-900')}>
                  {p.balance === null ? '—' : providerMoney(p.balance, p.currency)}
                </p>
                {p.lowBalance ? <Badge tone="red">Low balance</Badge> : null}
                {health.get(p.id)?.unhealthySince ? <Badge tone="red">Unhealthy</Badge> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

const PANEL_AMOUNT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** "USD 5,000.00": code first and digits grouped, as the shop writes "NGN 1,234.00"; text in another shape is shown as it came. */
function providerMoney(amount: string, currency: string): string {
  return /^-?\d+(\.\d+)?$/.test(amount) ? `${currency} ${PANEL_AMOUNT.format(amount as `${number}`)}` : `${amount} ${currency}`;
}
