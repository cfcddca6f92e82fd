// What an administrator must know about card payments right now, on the dashboard and in Payment
// Settings: the shop is in test mode, card payments are refused (and why), or test payments reached
// the shop in live mode and were refused instead of credited; and, on the dashboard, that the
// provider itself is refusing the shop.
import { Link } from 'react-router-dom';
import { Icon } from '@/components/Icon';
import type { PaymentRefusalAlert } from '@/features/admin/dashboard/api/get-dashboard';
import { formatAmount, formatDateTime } from '@/lib/format';
import type { PaymentSettingsView } from './api/get-payment-settings';

/**
 * The provider taking deposits refuses the shop's own calls (a mistyped or revoked key): every
 * customer's card funding fails until the key is fixed, so the dashboard says so first.
 */
export function PaymentRefusalNotice({ alert }: { alert: PaymentRefusalAlert }) {
  const times = alert.count === 1 ? 'once' : `${alert.count} times`;
  return (
    <p
      role="alert"
      aria-label="Card payments refused"
      className="flex items-start gap-2 rounded-xl bg-rose-50 px-4 py-3 text-sm text-rose-900 ring-1 ring-rose-200 ring-inset"
    >
      <Icon name="alert" className="mt-0.5 h-4 w-4 shrink-0" />
      <span>
        <strong>
          {alert.label} refused the shop&apos;s calls {times}
        </strong>{' '}
        {alert.verifiedAt ? `since its key was last verified (${formatDateTime(alert.verifiedAt)})` : 'and its key has not been verified'}; the last at{' '}
        {formatDateTime(alert.lastAt)}: &ldquo;{alert.lastError}&rdquo;. Customers are told card payments are unavailable. Check the key in{' '}
        <Link to="/admin/payment-settings" className="font-medium underline underline-offset-2">
          Payment Settings
        </Link>
        .
      </span>
    </p>
  );
}

export function PaymentNotices({ view, linkToSettings = false }: { view: PaymentSettingsView; linkToSettings?: boolean }) {
  const { mode, problem, flaggedPayments } = view;
  const settingsLink = linkToSettings ? (
    <Link to="/admin/payment-settings" className="font-medium underline underline-offset-2">
      Payment Settings
    </Link>
  ) : null;
  if (mode === 'live' && !problem && flaggedPayments.total === 0) return null;
  return (
    <div className="space-y-3">
      {mode === 'test' ? (
        <p
          role="note"
          aria-label="Test payments"
          className="flex items-start gap-2 rounded-xl bg-violet-50 px-4 py-3 text-sm text-violet-900 ring-1 ring-violet-200 ring-inset"
        >
          <Icon name="alert" className="mt-0.5 h-4 w-4 shrink-0" />
          <span>
            <strong>Test payments.</strong> Deposits go through the provider&apos;s sandbox and move no real money; every page shows a &ldquo;Test
            payments&rdquo; banner.
            {settingsLink ? <> Switch to live mode in {settingsLink} when you are ready.</> : null}
          </span>
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="flex items-start gap-2 rounded-xl bg-rose-50 px-4 py-3 text-sm text-rose-900 ring-1 ring-rose-200 ring-inset">
          <Icon name="alert" className="mt-0.5 h-4 w-4 shrink-0" />
          <span>
            {problem}
            {settingsLink ? <> Open {settingsLink}.</> : null}
          </span>
        </p>
      ) : null}
      {flaggedPayments.total > 0 ? (
        <section
          role="alert"
          aria-label="Test payments refused in live mode"
          className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset"
        >
          <p className="flex items-start gap-2">
            <Icon name="alert" className="mt-0.5 h-4 w-4 shrink-0" />
            <span>
              <strong>
                {flaggedPayments.total} test {flaggedPayments.total === 1 ? 'payment' : 'payments'} refused in live mode
              </strong>{' '}
              (last 30 days): the provider reported sandbox money, so no wallet was credited. Check who made them; a live shop should never see one.
            </span>
          </p>
          <ul className="mt-2 space-y-1 pl-6">
            {flaggedPayments.recent.map((payment) => (
              <li key={payment.reference} className="break-all">
                <span className="font-mono text-xs">{payment.reference}</span> · {payment.email} · {formatAmount(payment.amount)} · {payment.provider}
                {payment.flaggedAt ? ` · ${formatDateTime(payment.flaggedAt)}` : ''}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
