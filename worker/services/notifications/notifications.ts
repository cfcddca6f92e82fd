// What users are told about. An event is recorded as one notifications row, in the transaction
// that makes the event happen where there is one, and (kind, event key) is unique, so an event
// seen twice (a replayed webhook, a second sync) is told once. The bell reads the rows; the
// email job (notification-emails.ts) sends them, unless the user turned the kind off. Orders placed
// through the API are not told one by one: at most in a daily summary (api-order-digest.ts).
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { notificationSettings, notifications } from '../../../drizzle/schema';
import { API_ORDER_DIGEST, type NotificationKind } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import { formatNaira, koboToNaira, nairaToKobo } from '../../lib/decimal';
import { cappedCountQuery } from '../../lib/paging';
import { EMAIL_SWITCHED_KINDS, type EmailSwitchedKind, type NotificationSettingsInput } from '../../schemas/notifications';
import { startOfShopDay } from './api-order-digest';

export interface NotificationEvent {
  userId: number;
  kind: NotificationKind;
  /** Names the event within its kind: the same event always gives the same key. */
  eventKey: string;
  title: string;
  body: string;
  /** Where in the SPA the event is seen. */
  link: string;
}

export async function notify(tx: DbOrTx, event: NotificationEvent): Promise<void> {
  await tx
    .insert(notifications)
    .values(event)
    .onConflictDoNothing({ target: [notifications.kind, notifications.eventKey] });
}

/** A deposit just credited, as its owner is told of it. */
export interface DepositNotice {
  userId: number;
  amountKobo: bigint;
  reference: string;
  channel: 'card' | 'bank_transfer';
}

export async function notifyDepositCredited(tx: DbOrTx, deposit: DepositNotice): Promise<void> {
  const how = deposit.channel === 'bank_transfer' ? 'bank transfer' : 'card';
  await notify(tx, {
    userId: deposit.userId,
    kind: 'deposit_credited',
    eventKey: deposit.reference,
    link: '/user/transactions',
    title: 'Deposit credited',
    body: `${formatNaira(deposit.amountKobo)} from your ${how} payment was added to your wallet.`,
  });
}

/** An administrator's credit or debit of a wallet, in the words the owner's history shows it with (reference, a debit's reason). */
export interface WalletAdjustmentNotice {
  userId: number;
  direction: 'credit' | 'debit';
  amountKobo: bigint;
  reference: string;
  /** A debit's reason, which the owner's history also shows; nothing meant for the audit log only. */
  reason?: string;
}

/**
 * The owner's notification of an administrator's credit or debit, as an INSERT for the caller's statement that writes it
 * once for each row of `onlyWith` (a CTE of that statement, such as the ledger row): told if and only if the money moved.
 */
export function walletAdjustedNotice(adjustment: WalletAdjustmentNotice, onlyWith: SQL): SQL {
  const amount = formatNaira(adjustment.amountKobo);
  const event: NotificationEvent =
    adjustment.direction === 'credit'
      ? {
          userId: adjustment.userId,
          kind: 'wallet_adjusted',
          eventKey: `admin_credit:${adjustment.reference}`,
          link: '/user/transactions',
          title: 'Wallet credited',
          body: `${amount} was added to your wallet by an administrator (ref ${adjustment.reference}).`,
        }
      : {
          userId: adjustment.userId,
          kind: 'wallet_adjusted',
          eventKey: `admin_debit:${adjustment.reference}`,
          link: '/user/transactions',
          title: 'Wallet corrected',
          body: `${amount} was taken from your wallet by an administrator${adjustment.reason ? `: ${adjustment.reason.replace(/[.!?]?$/, '')}` : ''} (ref ${adjustment.reference}).`,
        };
  return sql`
    insert into ${notifications} (user_id, kind, event_key, title, body, link)
    select ${event.userId}, ${event.kind}, ${event.eventKey}, ${event.title}, ${event.body}, ${event.link} from ${onlyWith}
    on conflict (kind, event_key) do nothing`;
}

const ORDER_KINDS = { Completed: 'order_completed', Partial: 'order_partial', Canceled: 'order_canceled' } as const;

/**
 * An order that reached a final state, told with what was refunded (called where orders close, closeOrder). One placed
 * through the API is not: a reseller's tools place them by the hundred and read their outcome from the API, so they are
 * told only in the daily summary, for those who turned it on.
 */
export async function notifyOrderClosed(
  tx: DbOrTx,
  order: {
    id: number;
    userId: number;
    serviceName: string;
    status: keyof typeof ORDER_KINDS;
    refundedKobo: bigint;
    /** What the order's page says of why: only words meant for the customer. */
    reason?: string | null;
    /** Units the order was charged for, and those not delivered: the refund is the share of the charge for the latter. */
    total: number;
    undelivered: number;
    placedThroughApi: boolean;
  },
): Promise<void> {
  if (order.placedThroughApi) return;
  const delivered = order.total - order.undelivered;
  const count = (units: number) => units.toLocaleString('en-US');
  // A refund short of the charge is explained by what was delivered; a full one needs no sum.
  const refund =
    order.refundedKobo === 0n
      ? ''
      : delivered > 0
        ? ` ${count(delivered)} of ${count(order.total)} were delivered, so ${formatNaira(order.refundedKobo)} for the ${count(order.undelivered)} not delivered was refunded to your wallet.`
        : ` ${formatNaira(order.refundedKobo)} was refunded to your wallet.`;
  const why = order.reason ? ` ${order.reason.replace(/[.!?]?$/, '.')}` : '';
  const words = {
    Completed: { title: `Order #${order.id} completed`, body: `Your order for ${order.serviceName} is complete.` },
    Partial: { title: `Order #${order.id} partly delivered`, body: `Your order for ${order.serviceName} was only partly delivered.${why}${refund}` },
    Canceled: { title: `Order #${order.id} canceled`, body: `Your order for ${order.serviceName} was canceled.${why}${refund}` },
  }[order.status];
  await notify(tx, { userId: order.userId, kind: ORDER_KINDS[order.status], eventKey: String(order.id), link: '/user/orders', ...words });
}

/** A refill the provider finished; as with notifyOrderClosed, not for an order placed through the API, whose tools read refill_status. */
export async function notifyRefillCompleted(
  tx: DbOrTx,
  refill: { id: number; orderId: number; userId: number; serviceName: string; placedThroughApi: boolean },
): Promise<void> {
  if (refill.placedThroughApi) return;
  await notify(tx, {
    userId: refill.userId,
    kind: 'refill_completed',
    eventKey: String(refill.id),
    link: '/user/orders',
    title: `Refill of order #${refill.orderId} done`,
    body: `The refill you asked for on your ${refill.serviceName} order is done.`,
  });
}

export async function notifyTicketAnswered(tx: DbOrTx, answer: { messageId: number; ticketId: number; userId: number; subject: string }): Promise<void> {
  await notify(tx, {
    userId: answer.userId,
    kind: 'ticket_answered',
    eventKey: String(answer.messageId),
    link: `/user/tickets/${answer.ticketId}`,
    title: 'Support answered your ticket',
    body: `Support replied to “${answer.subject}”. Open the ticket to read it.`,
  });
}

// ---------------------------------------------------------------- the bell

/**
 * The most unread notices the bell says as a number: past it the bell writes "99+" (web's unreadCountText), so the count
 * stops one past it, however many thousands a busy account has unread.
 */
export const BELL_LARGEST_COUNT = 99;

/** The latest notices and the unread count (to one past BELL_LARGEST_COUNT at most), in one round trip. */
export async function listNotifications(db: Db, userId: number, limit: number) {
  const [items, [{ counted }]] = await db.batch([
    db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.id)).limit(limit),
    cappedCountQuery(db, notifications, and(eq(notifications.userId, userId), isNull(notifications.readAt)), BELL_LARGEST_COUNT),
  ]);
  return {
    unread: counted,
    items: items.map((n) => ({
      id: n.id,
      kind: n.kind,
      title: n.title,
      body: n.body,
      link: n.link,
      createdAt: n.createdAt.toISOString(),
      read: n.readAt !== null,
    })),
  };
}

export async function markRead(db: Db, userId: number, ids?: number[]): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), ids ? inArray(notifications.id, ids) : undefined));
}

// ---------------------------------------------------------------- settings

/**
 * `email`: each kind with an email switch, on unless turned off. The API order summary is not among them: it is written
 * only while `apiOrderDigest` is on (off unless turned on), so that one setting is its bell item and its email both.
 */
export async function notificationSettingsOf(db: DbOrTx, userId: number) {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  const off = new Set(row?.emailOff ?? []);
  return {
    email: Object.fromEntries(EMAIL_SWITCHED_KINDS.map((kind) => [kind, !off.has(kind)])) as Record<EmailSwitchedKind, boolean>,
    lowBalance: row?.lowBalanceKobo ? koboToNaira(row.lowBalanceKobo) : null,
    apiOrderDigest: row?.apiOrderDigest ?? false,
  };
}

/**
 * Kinds not named keep their setting, as does the API order summary when not named. A new low-balance amount arms the
 * alert again. The summary turned on starts with today's API orders (those closed earlier were never told, nor will be);
 * one already on keeps the day it has reached, so saving other settings never skips or repeats a day.
 */
export async function updateNotificationSettings(db: Db, userId: number, input: NotificationSettingsInput) {
  const current = await notificationSettingsOf(db, userId);
  const email = { ...current.email, ...input.email };
  const emailOff = EMAIL_SWITCHED_KINDS.filter((kind) => !email[kind]);
  const lowBalanceKobo = input.lowBalance === null ? null : nairaToKobo(input.lowBalance);
  const apiOrderDigest = input.apiOrderDigest ?? current.apiOrderDigest;
  await db
    .insert(notificationSettings)
    .values({ userId, emailOff, lowBalanceKobo, apiOrderDigest, apiDigestThrough: apiOrderDigest ? startOfShopDay : null })
    .onConflictDoUpdate({
      target: notificationSettings.userId,
      set: {
        emailOff,
        lowBalanceKobo,
        apiOrderDigest,
        apiDigestThrough: apiOrderDigest ? sql`coalesce(${notificationSettings.apiDigestThrough}, ${startOfShopDay})` : null,
        updatedAt: sql`now()`,
        lowBalanceAlertedAt: sql`case when ${notificationSettings.lowBalanceKobo} is not distinct from ${lowBalanceKobo} then ${notificationSettings.lowBalanceAlertedAt} end`,
      },
    });
  return notificationSettingsOf(db, userId);
}

/** One kind off, from an email's unsubscribe link; the API order summary's link turns the summary off. */
export async function turnEmailOff(db: Db, userId: number, kind: NotificationKind): Promise<void> {
  if (kind === API_ORDER_DIGEST) {
    await db
      .insert(notificationSettings)
      .values({ userId, apiOrderDigest: false })
      .onConflictDoUpdate({ target: notificationSettings.userId, set: { apiOrderDigest: false, apiDigestThrough: null, updatedAt: sql`now()` } });
    return;
  }
  await db
    .insert(notificationSettings)
    .values({ userId, emailOff: [kind] })
    .onConflictDoUpdate({
      target: notificationSettings.userId,
      set: {
        emailOff: sql`case when ${notificationSettings.emailOff} @> ${JSON.stringify([kind])}::jsonb then ${notificationSettings.emailOff} else ${notificationSettings.emailOff} || ${JSON.stringify([kind])}::jsonb end`,
        updatedAt: sql`now()`,
      },
    });
}
