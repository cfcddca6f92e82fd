// What an administrator must know about card payments right now, on the dashboard and in Payment
// Settings: the shop is in test mode, card payments are refused (and why), or test payments reached
// the shop in live mode and were refused instead of credited; and, on the dashboard, that the
// provider itself is refusing the shop.
import { Link } from 'react-router-dom';
import { Notice } from '@/components/Notice';
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
    <Notice tone="rose" label="Card payments refused">
      <strong>
        {alert.label} refused the shop&apos;s calls {times}
      </strong>{' '}
      {alert.verifiedAt ? `since its key was last verified (${formatDateTime(alert.verifiedAt)})` : 'and its key has not been verified'}; the last at{' '}
      {formatDateTime(alert.lastAt)}: &ldquo;{alert.lastError}&rdquo;. Customers are told card payments are unavailable. Check the key in{' '}
      <Link to="/admin/payment-settings" className="font-medium underline underline-offset-2">
        Payment Settings
      </Link>
      .
    </Notice>
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
        <Notice tone="violet" role="note" label="Test payments">
          <strong>Test payments.</strong> Deposits go through the provider&apos;s sandbox and move no real money; every page shows a &ldquo;Test payments&rdquo;
          banner.
          {settingsLink ? <> Switch to live mode in {settingsLink} when you are ready.</> : null}
        </Notice>
      ) : null}
      {problem ? (
        <Notice tone="rose">
          {problem}
          {settingsLink ? <> Open {settingsLink}.</> : null}
        </Notice>
      ) : null}
      {flaggedPayments.total > 0 ? (
        <Notice
          tone="amber"
          label="Test payments refused in live mode"
          details={
            <ul className="mt-2 space-y-1 pl-6">
              {flaggedPayments.recent.map((payment) => (
                <li key={payment.reference} className="break-all">
                  <span className="font-mono text-xs">{payment.reference}</span> · {payment.email} · {formatAmount(payment.amount)} · {payment.provider}
                  {payment.flaggedAt ? ` · ${formatDateTime(payment.flaggedAt)}` : ''}
                </li>
              ))}
            </ul>
          }
        >
          <strong>
            {flaggedPayments.total} test {flaggedPayments.total === 1 ? 'payment' : 'payments'} refused in live mode
          </strong>{' '}
          (last 30 days): the provider reported sandbox money, so no wallet was credited. Check who made them; a live shop should never see one.
        </Notice>
      ) : null}
    </div>
  );
}
