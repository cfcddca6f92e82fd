// The audit log in words: what each recorded action did, for the dashboard and the full log.

import type { AuditArea } from '@schemas/admin';
import { formatAmount } from '@/lib/format';
import type { AuditEntry } from './api/get-audit-log';

/** Areas of the log, the filter's choices (an area matches every action under it). */
export const AUDIT_AREAS = [
  { value: 'wallet', label: 'Wallet credits and corrections' },
  { value: 'user', label: 'Suspensions' },
  { value: 'admin', label: 'Administrators' },
  { value: 'order', label: 'Orders' },
  { value: 'service', label: 'Services' },
  { value: 'category', label: 'Categories' },
  { value: 'catalogue', label: 'Pricing rules and repricing' },
  { value: 'rate', label: 'Exchange rates' },
  { value: 'provider', label: 'Providers' },
  { value: 'settings', label: 'Site and payment settings' },
] as const satisfies ReadonlyArray<{ value: AuditArea; label: string }>;

/** An entry's details as named fields: each writer records an object of its own. */
export const detailsOf = (entry: Pick<AuditEntry, 'details'>): Record<string, unknown> =>
  entry.details !== null && typeof entry.details === 'object' && !Array.isArray(entry.details) ? entry.details : {};

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** What moved prices, for a repricing entry (catalogue.reprice). */
const REPRICE_CAUSES: Record<string, string> = {
  sync: 'after a catalogue sync',
  rate: 'at an accepted exchange rate',
  rules: 'under changed markups or pricing rules',
};

const PAYMENT_KEY_NAMES: Record<string, string> = {
  paystackSecretKey: 'Paystack secret key',
  flutterwaveSecretKey: 'Flutterwave secret key',
  flutterwaveWebhookHash: 'Flutterwave webhook hash',
};
const PAYMENT_FIELD_NAMES: Record<string, string> = { provider: 'provider', mode: 'mode', minDeposit: 'minimum deposit', maxDeposit: 'maximum deposit' };

/** 'Payment settings: set the Paystack secret key; mode test → live' (keys are named, never shown). */
function describePaymentSettingsChange(d: Record<string, unknown>, currency: string): string {
  // Entries written before the audit named each change.
  if (!d.changes) return 'Changed the payment settings';
  const keys = (value: unknown) => (Array.isArray(value) ? value.map((name) => PAYMENT_KEY_NAMES[String(name)] ?? String(name)) : []);
  const shown = (field: string, value: unknown) => (field.endsWith('Deposit') ? formatAmount(text(value), currency) : text(value));
  const changes = Object.entries(d.changes as Record<string, { from?: unknown; to?: unknown }>).map(
    ([field, { from, to }]) => `${PAYMENT_FIELD_NAMES[field] ?? field} ${shown(field, from)} → ${shown(field, to)}`,
  );
  const parts = [...keys(d.keysSet).map((name) => `set the ${name}`), ...keys(d.keysCleared).map((name) => `cleared the ${name}`), ...changes];
  return parts.length ? `Payment settings: ${parts.join('; ')}` : 'Saved the payment settings unchanged';
}

/** One line for an entry, e.g. 'Credited ₦1,500.00 to user #5 (ref Bank transfer)'. */
export function describeAuditEntry(entry: AuditEntry, currency: string): string {
  const d = detailsOf(entry);
  const target = entry.targetId ? `#${entry.targetId}` : '';
  switch (entry.action) {
    case 'wallet.credit':
      return `Credited ${formatAmount(text(d.amount), currency)} to user ${target} (ref ${text(d.reference)})`;
    case 'wallet.debit':
      return `Debited ${formatAmount(text(d.amount), currency)} from user ${target}: ${text(d.reason)}`;
    case 'user.suspend':
      return `Suspended user ${target}`;
    case 'user.reactivate':
      return `Reactivated user ${target}`;
    case 'admin.promote':
      return d.through === 'invitation link'
        ? `User ${target} became an administrator with the invitation link${d.email ? ` (${text(d.email)})` : ''}`
        : `Made user ${target} an administrator${d.email ? ` (${text(d.email)})` : ''}`;
    case 'admin.invite_existing':
      return `Emailed ${text(d.email)} (user ${target}) a link to become an administrator`;
    case 'admin.invite':
      return `Invited ${text(d.fullName)} (${text(d.email)}) as an administrator`;
    case 'admin.remove':
      return `Removed administrator ${target}`;
    case 'order.cancel':
      return `Canceled order ${target} with a full refund${d.reason ? `: ${text(d.reason)}` : ''}`;
    case 'order.status':
      return `Set order ${target} from ${text(d.from)} to ${text(d.to)}`;
    case 'order.resend':
      return `Resent order ${target} to the provider`;
    case 'order.link':
      return `Linked order ${target} to provider order ${text(d.providerOrderId)}`;
    case 'order.refill':
      return `Requested a refill of order ${target}`;
    case 'ticket.reply':
      return `Answered ticket ${target}`;
    case 'ticket.assign':
      return `Took ticket ${target}`;
    case 'ticket.close':
      return `Closed ticket ${target}`;
    case 'service.update':
      return `Edited service ${target}`;
    case 'service.import':
      return `Imported services from provider ${target}`;
    case 'service.csv_import':
      return `Imported services from a CSV file (provider ${target})`;
    case 'service.bulk_enable':
      return 'Switched services on in bulk';
    case 'service.bulk_disable':
      return 'Switched services off in bulk';
    case 'service.bulk_markup':
      return 'Set the markup of services in bulk';
    case 'category.update':
      return `Edited category ${target}`;
    case 'catalogue.settings':
      return 'Changed the global markup or margin rules';
    case 'catalogue.reprice':
      return `Repriced ${text(d.services)} service(s) ${REPRICE_CAUSES[text(d.cause)] ?? ''}`.trim();
    case 'rate.accept':
      return `Accepted the new ${entry.targetId ?? ''} rate: ${text(d.before)} → ${text(d.after)} per USD (${text(d.changePercent)}%)`;
    case 'rate.reject':
      return `Rejected the proposed ${entry.targetId ?? ''} rate ${text(d.rejectedRate)}, kept ${text(d.rate)} per USD`;
    case 'service.provider_price_accept': {
      const providerRate = (d.providerRate ?? {}) as Record<string, unknown>;
      return `Accepted the provider's new price for service ${target}: ${text(providerRate.before)} → ${text(providerRate.after)} ${text(d.currency)} per 1000`;
    }
    case 'provider.create':
      return `Added provider ${text(d.name) || target}`;
    case 'provider.update':
      return `Edited provider ${target}`;
    case 'provider.delete':
      return `Deleted provider ${target}`;
    case 'settings.site.update':
      return 'Changed the site settings';
    case 'settings.reseller_api.update':
      return d.refuseWritesOverGet ? 'Changed the reseller API settings (writes over GET refused)' : 'Changed the reseller API settings';
    case 'settings.security.update':
      return d.adminTwoFactorRequired ? 'Required two-factor sign-in of every administrator' : 'Made two-factor sign-in optional for administrators';
    case 'two_factor.enable':
      return 'Turned on two-factor sign-in';
    case 'two_factor.disable':
      return 'Turned off two-factor sign-in';
    case 'two_factor.recovery_codes':
      return 'Made new two-factor recovery codes';
    case 'two_factor.locked':
      return `Two-factor sign-in of user ${target} locked after wrong codes`;
    case 'settings.payment.update':
      return describePaymentSettingsChange(d, currency);
    default:
      return `${entry.action} ${entry.targetType} ${target}`.trim();
  }
}
