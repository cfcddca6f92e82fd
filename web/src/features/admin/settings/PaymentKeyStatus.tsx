// What Payment Settings says of one key instead of a bare "Configured": where the key in effect
// comes from, when its provider last answered a payment made with it or accepted it on a check, or why it fails (the provider's own refusals),
// with "Check now" and, for a key saved here, "Clear" (the deployment's secret is used again).
import { PAYMENT_PROVIDER_LABELS, PAYMENT_PROVIDERS, PAYMENT_SECRET_KEY_OF } from '@schemas/settings';
import { Badge } from '@/components/StatusBadge';
import { formatDateTime, timeAgo } from '@/lib/format';
import type { PaymentSettingsView } from './api/get-payment-settings';

export type KeyName = keyof PaymentSettingsView['configuredKeys'];

/** The provider whose calls a key authorises, the one that can check it; none for the webhook hash. */
const providerOfKey = (name: KeyName) => PAYMENT_PROVIDERS.find((provider) => PAYMENT_SECRET_KEY_OF[provider] === name);

const When = ({ at }: { at: string }) => (
  <time dateTime={at} title={timeAgo(at)}>
    {formatDateTime(at)}
  </time>
);

/** The badge next to a key's label. */
export function KeyBadge({ name, view }: { name: KeyName; view: PaymentSettingsView }) {
  const provider = providerOfKey(name);
  const inEffect = view.configuredKeys[name] || view.deploymentKeys[name];
  if (!inEffect) return <Badge tone="amber">Not configured</Badge>;
  if (!provider) return <Badge tone="green">Set</Badge>;
  const check = view.keyChecks[provider];
  if (check.refusals) return <Badge tone="red">Refused</Badge>;
  // A key the provider answers payments with is proven by that use, whether or not anyone pressed Check now.
  if (check.usedAt) return <Badge tone="green">In use</Badge>;
  return check.verifiedAt ? <Badge tone="green">Verified</Badge> : <Badge tone="slate">Not verified</Badge>;
}

interface KeyStatusProps {
  name: KeyName;
  /** The field's label, e.g. "Paystack secret key", naming the buttons. */
  label: string;
  view: PaymentSettingsView;
  busy: boolean;
  onCheck(provider: PaymentSettingsView['provider']): void;
  onClear(name: KeyName, label: string): void;
}

/** The line under a key's field: its source, its verification or refusals, and what can be done. */
export function KeyStatus({ name, label, view, busy, onCheck, onClear }: KeyStatusProps) {
  const provider = providerOfKey(name);
  const saved = view.configuredKeys[name];
  const check = provider ? view.keyChecks[provider] : null;
  if (!saved && !view.deploymentKeys[name]) return null;
  return (
    <div className="mt-2 flex flex-wrap items-start justify-between gap-x-4 gap-y-2 text-xs text-slate-600">
      <p className="min-w-0 flex-1 space-x-1">
        <span>{saved ? 'Saved here' : 'From deployment secrets'}</span>
        {provider && check ? (
          <>
            <span aria-hidden="true">·</span>
            {check.usedAt ? (
              <span>
                {PAYMENT_PROVIDER_LABELS[provider]} answered a payment made with it <When at={check.usedAt} />
              </span>
            ) : check.verifiedAt ? (
              <span>
                {PAYMENT_PROVIDER_LABELS[provider]} accepted it <When at={check.verifiedAt} />
              </span>
            ) : (
              <span>Not verified with {PAYMENT_PROVIDER_LABELS[provider]} since it was set</span>
            )}
            {check.refusals ? (
              <span className="block font-medium text-rose-700">
                {PAYMENT_PROVIDER_LABELS[provider]} refused the shop&apos;s calls {check.refusals.count === 1 ? 'once' : `${check.refusals.count} times`} since,
                the last at <When at={check.refusals.lastAt} />: &ldquo;
                {check.refusals.lastError}&rdquo;
              </span>
            ) : null}
          </>
        ) : (
          <span>· {PAYMENT_PROVIDER_LABELS.flutterwave} offers no call to check it; a webhook with another hash is refused.</span>
        )}
      </p>
      <span className="flex shrink-0 gap-2">
        {provider ? (
          <button type="button" className="btn-sm btn-secondary" disabled={busy} aria-label={`Check now: the ${label}`} onClick={() => onCheck(provider)}>
            Check now
          </button>
        ) : null}
        {saved ? (
          <button type="button" className="btn-sm btn-secondary" disabled={busy} aria-label={`Clear the saved ${label}`} onClick={() => onClear(name, label)}>
            Clear saved key
          </button>
        ) : null}
      </span>
    </div>
  );
}
