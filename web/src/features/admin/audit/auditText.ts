// The audit log in words: what each recorded action did, who did it, what it acted on (and where that
// record is in the admin area), and each edit's before and after, for the dashboard, the log and an entry's page.
// Money is the shop's naira, written as every screen writes it ("NGN 1,500.00").

import type { AuditArea, AuditTargetType } from '@schemas/admin';
import { DEFAULT_CURRENCY, formatAmount } from '@/lib/format';
import type { AuditEntry } from './api/get-audit-log';

/** Areas of the log, the filter's choices (an area matches every action under it). */
export const AUDIT_AREAS = [
  { value: 'wallet', label: 'Wallet credits and corrections' },
  { value: 'user', label: 'Suspensions' },
  { value: 'admin', label: 'Administrators' },
  { value: 'two_factor', label: 'Two-factor sign-in' },
  { value: 'order', label: 'Orders' },
  { value: 'ticket', label: 'Support tickets' },
  { value: 'service', label: 'Services' },
  { value: 'category', label: 'Categories' },
  { value: 'catalogue', label: 'Pricing rules and repricing' },
  { value: 'rate', label: 'Exchange rates' },
  { value: 'provider', label: 'Providers' },
  { value: 'referral', label: 'Referrals' },
  { value: 'settings', label: 'Site and payment settings' },
] as const satisfies ReadonlyArray<{ value: AuditArea; label: string }>;

/** The kinds of record an entry acts on, the target filter's choices. */
export const AUDIT_TARGET_TYPES = [
  { value: 'user', label: 'User' },
  { value: 'order', label: 'Order' },
  { value: 'service', label: 'Service' },
  { value: 'category', label: 'Category' },
  { value: 'provider', label: 'Provider' },
  { value: 'ticket', label: 'Ticket' },
  { value: 'exchange_rate', label: 'Exchange rate' },
  { value: 'settings', label: 'Settings' },
] as const satisfies ReadonlyArray<{ value: AuditTargetType; label: string }>;

/** An entry's details as named fields: each writer records an object of its own. */
export const detailsOf = (entry: Pick<AuditEntry, 'details'>): Record<string, unknown> => (isRecord(entry.details) ? entry.details : {});

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** Naira text or a number of naira as the shop writes money: "NGN 1,500.00". */
export const naira = (value: unknown) => formatAmount(text(value), DEFAULT_CURRENCY);

/** A person as the log names them: "Ada Obi (ada@example.com)"; an account deleted since keeps its number. */
export function personName(person: { id?: number; fullName: string | null; email: string | null }): string {
  if (person.fullName && person.email) return `${person.fullName} (${person.email})`;
  return person.fullName || person.email || `a deleted account${person.id ? ` (#${person.id})` : ''}`;
}

/** Who made the change: an administrator by name, or the shop's own work. */
export const actorName = (entry: Pick<AuditEntry, 'actor'>) => (entry.actor ? personName(entry.actor) : 'System');

/** The record acted on in words: a user or provider by name, anything else by its kind and id ("order #102"). */
export function targetName(entry: Pick<AuditEntry, 'targetType' | 'targetId' | 'targetUser' | 'targetProvider' | 'details'>): string {
  if (entry.targetType === 'user' && entry.targetUser) return personName(entry.targetUser);
  if (entry.targetType === 'provider') {
    // A deleted provider is named by its entry's details where they kept the name.
    const name = entry.targetProvider?.name ?? text(detailsOf(entry).name);
    if (name) return `provider ${name}`;
  }
  const kind = AUDIT_TARGET_TYPES.find((type) => type.value === entry.targetType)?.label ?? entry.targetType;
  if (entry.targetType === 'settings') return `${SETTINGS_NAMES[entry.targetId ?? ''] ?? entry.targetId ?? ''} settings`.trim();
  if (entry.targetType === 'exchange_rate') return `${entry.targetId ?? ''} exchange rate`.trim();
  return entry.targetId ? `${kind.toLowerCase()} #${entry.targetId}` : `${kind.toLowerCase()}s`;
}

const SETTINGS_NAMES: Record<string, string> = {
  site: 'Site',
  payment: 'Payment',
  security: 'Security',
  reseller_api: 'Reseller API',
  catalogue: 'Pricing',
  referral: 'Referral',
};

/** Where the target is in the admin area; a user's page takes whom to show from router state. */
export interface TargetLink {
  to: string;
  state?: { userId: number | string };
}

export function targetLink(entry: Pick<AuditEntry, 'targetType' | 'targetId'>): TargetLink | null {
  const id = entry.targetId;
  switch (entry.targetType) {
    case 'user':
      return id ? { to: '/admin/manage-user', state: { userId: id } } : null;
    case 'order':
      return id ? { to: `/admin/orders?search=${encodeURIComponent(id)}` } : { to: '/admin/orders' };
    case 'service':
      return id ? { to: `/admin/services?search=${encodeURIComponent(id)}` } : { to: '/admin/services' };
    case 'ticket':
      return id ? { to: `/admin/tickets/${encodeURIComponent(id)}` } : { to: '/admin/tickets' };
    case 'category':
      return { to: '/admin/services?tab=categories' };
    case 'provider':
      return { to: '/admin/services?tab=providers' };
    case 'exchange_rate':
      return { to: '/admin/services?tab=pricing' };
    case 'settings':
      if (id === 'payment') return { to: '/admin/payment-settings' };
      if (id === 'catalogue') return { to: '/admin/services?tab=pricing' };
      if (id === 'referral') return { to: '/admin/referrals' };
      return { to: '/admin/site-settings' };
    default:
      return null;
  }
}

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
function describePaymentSettingsChange(d: Record<string, unknown>): string {
  // Entries written before the audit named each change.
  if (!d.changes) return 'Changed the payment settings';
  const keys = (value: unknown) => (Array.isArray(value) ? value.map((name) => PAYMENT_KEY_NAMES[String(name)] ?? String(name)) : []);
  const shown = (field: string, value: unknown) => (field.endsWith('Deposit') ? naira(value) : text(value));
  const changes = Object.entries(d.changes as Record<string, { from?: unknown; to?: unknown }>).map(
    ([field, { from, to }]) => `${PAYMENT_FIELD_NAMES[field] ?? field} ${shown(field, from)} → ${shown(field, to)}`,
  );
  const parts = [...keys(d.keysSet).map((name) => `set the ${name}`), ...keys(d.keysCleared).map((name) => `cleared the ${name}`), ...changes];
  return parts.length ? `Payment settings: ${parts.join('; ')}` : 'Saved the payment settings unchanged';
}

/**
 * One line for an entry, e.g. 'Credited NGN 1,500.00 to Ada Obi (ada@example.com) (ref Bank transfer)'.
 * Amounts are the shop's naira whatever `currency` a screen passes.
 */
export function describeAuditEntry(entry: AuditEntry, _currency: string = DEFAULT_CURRENCY): string {
  const d = detailsOf(entry);
  const target = entry.targetId ? `#${entry.targetId}` : '';
  // A user by name where the entry's target is one ("user #5" only for an account deleted since).
  const user = targetName(entry);
  switch (entry.action) {
    case 'wallet.credit':
      return `Credited ${naira(d.amount)} to ${user} (ref ${text(d.reference)})`;
    case 'wallet.debit':
      return `Debited ${naira(d.amount)} from ${user}: ${text(d.reason)}`;
    case 'user.suspend':
      return `Suspended ${user}`;
    case 'user.reactivate':
      return `Reactivated ${user}`;
    case 'admin.promote':
      return d.through === 'invitation link'
        ? `${capitalised(user)} became an administrator with the invitation link${d.email && !entry.targetUser ? ` (${text(d.email)})` : ''}`
        : `Made ${user} an administrator${d.email && !entry.targetUser ? ` (${text(d.email)})` : ''}`;
    case 'admin.invite_existing':
      return entry.targetUser ? `Emailed ${user} a link to become an administrator` : `Emailed ${text(d.email)} (${user}) a link to become an administrator`;
    case 'admin.invite':
      return `Invited ${text(d.fullName)} (${text(d.email)}) as an administrator`;
    case 'admin.remove':
      return `Removed administrator ${user}`;
    case 'referral.void':
      return `Voided the referral of ${user}${d.reason ? `: ${text(d.reason)}` : ''}`;
    case 'order.cancel':
      return `Canceled order ${target} with a full refund${d.reason ? `: ${text(d.reason)}` : ''}`;
    case 'order.refund_without_provider':
      return `Canceled order ${target} and refunded it without the provider${d.reason ? `: ${text(d.reason)}` : ''}`;
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
    case 'service.update': {
      const price = priceEditOf(d);
      return price && price.before.rate !== price.after.rate
        ? `Edited service ${target}: price ${naira(price.before.rate)} → ${naira(price.after.rate)}`
        : `Edited service ${target}`;
    }
    case 'service.import':
      return `Imported services from ${targetName(entry)}`;
    case 'service.csv_import':
      return `Imported services from a CSV file (${targetName(entry)})`;
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
      return `Edited ${targetName(entry)}`;
    case 'provider.delete':
      return `Deleted ${targetName(entry)}`;
    case 'settings.site.update':
      return 'Changed the site settings';
    case 'settings.referral.update':
      return 'Changed the referral settings';
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
      return `Two-factor sign-in of ${user} locked after wrong codes`;
    case 'settings.payment.update':
      return describePaymentSettingsChange(d);
    default:
      return `${entry.action} ${targetName(entry)}`.trim();
  }
}

const capitalised = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

// ---------------------------------------------------------------- before and after

/** A service edit's price per 1000 and its cost, before and after (naira text). */
export interface PriceEdit {
  before: { rate: string; cost: string };
  after: { rate: string; cost: string };
}

export function priceEditOf(d: Record<string, unknown>): PriceEdit | null {
  const price = d.price;
  if (!isRecord(price) || !isRecord(price.before) || !isRecord(price.after)) return null;
  return {
    before: { rate: text(price.before.rate), cost: text(price.before.cost) },
    after: { rate: text(price.after.rate), cost: text(price.after.cost) },
  };
}

/** One field an edit changed, as the entry's page lists it. */
export interface ChangedField {
  field: string;
  label: string;
  before: string;
  after: string;
}

const FIELD_LABELS: Record<string, string> = {
  rate: 'Price per 1000',
  cost: 'Cost per 1000',
  markupPercent: 'Markup',
  priceMode: 'Pricing',
  min: 'Minimum quantity',
  max: 'Maximum quantity',
  refillDays: 'Refill window (days)',
  maxRefills: 'Refills per order',
  linkKind: 'Link kind',
  enabled: 'On sale',
  siteName: 'Site name',
  logoUrl: 'Logo',
  contactEmail: 'Contact email',
  contactPhone: 'Contact phone',
  aboutUs: 'About us',
  contactUs: 'Contact us',
  defaultCurrency: 'Default currency',
  maintenanceNotice: 'Maintenance notice',
  adminTwoFactorRequired: 'Two-factor required of administrators',
  refuseWritesOverGet: 'Writes over GET refused',
  defaultMarkupBps: 'Default markup',
  minMarginBps: 'Minimum margin',
  marginGuardAction: 'Under the minimum margin',
  rateBandBps: 'Exchange-rate band',
  providerPriceFactorBps: 'Provider price limit (×)',
  ratePercent: 'Commission',
  holdDays: 'Held (days)',
  capKobo: 'Cap per referred account',
  minDeposit: 'Minimum deposit',
  maxDeposit: 'Maximum deposit',
  status: 'Status',
  apiUrl: 'API URL',
  timeoutMs: 'Timeout (ms)',
  lowBalanceAlert: 'Low-balance alert',
  name: 'Name',
  description: 'Description',
  category: 'Category',
  platform: 'Platform',
};

/** "perMinute.add" → "Per minute: add"; "minDeposit" → "Min deposit". */
function fieldLabel(field: string): string {
  if (FIELD_LABELS[field]) return FIELD_LABELS[field];
  const words = (name: string) =>
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/_/g, ' ')
      .toLowerCase();
  const [head, ...rest] = field.split('.');
  return capitalised(rest.length ? `${words(head)}: ${rest.map(words).join(' ')}` : words(head));
}

const MONEY_FIELDS = new Set(['rate', 'cost', 'minDeposit', 'maxDeposit']);

/** A recorded value as a person reads it: money in naira, basis points as percentages, yes/no, "none". */
function fieldValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (MONEY_FIELDS.has(field) || field.endsWith('Naira')) return naira(value);
  if (field.endsWith('Kobo')) return naira(Number(value) / 100);
  if (field === 'providerPriceFactorBps') return `${(Number(value) / 10_000).toFixed(2)}×`;
  if (field.endsWith('Bps')) return `${(Number(value) / 100).toFixed(2)}%`;
  if (field.endsWith('Percent')) return `${text(value)}%`;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

const changed = (field: string, before: unknown, after: unknown): ChangedField => ({
  field,
  label: fieldLabel(field),
  before: fieldValue(field, before),
  after: fieldValue(field, after),
});

/** Field by field, what differs between two recorded objects (nested ones as "perMinute.add"). */
function diff(before: Record<string, unknown>, after: Record<string, unknown>, prefix = ''): ChangedField[] {
  return Object.keys({ ...before, ...after }).flatMap((field) => {
    const [from, to] = [before[field], after[field]];
    if (isRecord(from) && isRecord(to)) return diff(from, to, `${prefix}${field}.`);
    return JSON.stringify(from ?? null) === JSON.stringify(to ?? null) ? [] : [changed(`${prefix}${field}`, from, to)];
  });
}

/**
 * Every before → after an entry records: the fields an edit changed (`changes`), a service's price and
 * cost, a status, a rate, a provider's price. A repricing's list of services is PriceChanges' to show.
 */
export function changedFields(entry: Pick<AuditEntry, 'action' | 'details'>): ChangedField[] {
  const d = detailsOf(entry);
  const fields: ChangedField[] = [];
  const price = priceEditOf(d);
  if (price) fields.push(changed('rate', price.before.rate, price.after.rate), changed('cost', price.before.cost, price.after.cost));
  if (isRecord(d.changes)) {
    for (const [field, move] of Object.entries(d.changes)) {
      // The price is shown above with its cost.
      if (price && field === 'rate') continue;
      if (isRecord(move)) fields.push(changed(field, move.from, move.to));
    }
  } else if (isRecord(d.before) && isRecord(d.after)) {
    fields.push(...diff(d.before, d.after));
  } else if (d.before !== undefined && d.after !== undefined && entry.action === 'rate.accept') {
    fields.push(changed('rate per USD', d.before, d.after));
  }
  if (entry.action.startsWith('order.') && d.from !== undefined && d.to !== undefined) fields.push(changed('status', d.from, d.to));
  if (entry.action === 'order.refund_without_provider' && d.from !== undefined) fields.push(changed('status', d.from, 'Canceled'));
  if (isRecord(d.providerRate)) fields.push(changed(`provider price (${text(d.currency)} per 1000)`, d.providerRate.before, d.providerRate.after));
  return fields;
}

/** The note an administrator wrote with the change (a reason, a reference), if any. */
export function entryNote(entry: Pick<AuditEntry, 'details'>): string | null {
  const d = detailsOf(entry);
  const note = [d.reason, d.note, d.reference].map(text).filter(Boolean);
  return note.length ? note.join(' · ') : null;
}
