// Every user and admin screen's reads, as the SPA asks for them: lists with each filter and search, details,
// the dashboard for each period, exports, audit, tickets, referrals and reconciliation. The same list at both
// volumes; ids (the heavy reseller's latest order, a ticket, an audit row, ...) are looked up for each phase.
import pg from 'pg';

export type Who = 'public' | 'admin' | 'heavy' | 'light';

export interface ScaleCall {
  name: string;
  who: Who;
  path: string;
  /** A statement the plans are asked for at full volume (EXPLAIN (ANALYZE, BUFFERS) of what the Worker ran). */
  explain?: boolean;
}

export interface PhaseIds {
  heavyUserId: number;
  lightUserId: number;
  heavyOrderId: number;
  heavyTicketId: number | null;
  anyTicketId: number;
  auditId: number;
  serviceId: number;
  providerId: number;
  /** A piece of one of the heavy reseller's order links: a search that finds a few rows. */
  linkPiece: string;
  /** Part of a seeded user's email: an admin user search that finds one. */
  emailPiece: string;
  /** The first day of the last 30 and today (UTC), as the date filters take them. */
  from: string;
  to: string;
  /** The ledger exports written for this phase (exports.ts): the whole ledger's and the heavy reseller's. */
  exportIds: { all: number; byUser: number } | null;
}

export async function lookUpIds(databaseUrl: string, heavyUserId: number, lightUserId: number): Promise<PhaseIds> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const q = async <T>(text: string, values: unknown[] = []) => (await client.query(text, values)).rows[0] as T | undefined;
    const order = await q<{ id: number; link: string }>(`select id, link from orders where user_id = $1 order by created_at desc, id desc limit 1`, [
      heavyUserId,
    ]);
    const heavyTicket = await q<{ id: number }>(`select id from tickets where user_id = $1 order by last_message_at desc limit 1`, [heavyUserId]);
    const anyTicket = await q<{ id: number }>(`select id from tickets order by id desc limit 1`);
    const audit = await q<{ id: number }>(`select id from audit_log order by id desc limit 1`);
    const service = await q<{ id: number; provider_id: number }>(`select id, provider_id from services where enabled order by id desc limit 1`);
    const user = await q<{ email: string }>(`select email from users where id = $1`, [lightUserId]);
    const today = new Date();
    const monthAgo = new Date(today.getTime() - 30 * 86_400_000);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const link = order?.link ?? 'https://instagram.com/p/x';
    return {
      heavyUserId,
      lightUserId,
      heavyOrderId: order?.id ?? 1,
      heavyTicketId: heavyTicket?.id ?? null,
      anyTicketId: anyTicket?.id ?? 1,
      auditId: audit?.id ?? 1,
      serviceId: service?.id ?? 1,
      providerId: service?.provider_id ?? 1,
      linkPiece: link.slice(-8),
      emailPiece: (user?.email ?? 'scale').split('@')[0],
      from: day(monthAgo),
      to: day(today),
      exportIds: null,
    };
  } finally {
    await client.end();
  }
}

export function scaleCalls(ids: PhaseIds): ScaleCall[] {
  const u = '/api/v1/user';
  const a = '/api/v1/admin';
  const calls: ScaleCall[] = [
    // ------------------------------------------------ a heavy reseller's screens (the user with the most orders)
    { name: 'user profile (session check)', who: 'heavy', path: `${u}/getCurrentProfile` },
    { name: 'user wallet balance', who: 'heavy', path: `${u}/getWalletBalance` },
    { name: 'user orders, page 1', who: 'heavy', path: `${u}/orders`, explain: true },
    { name: 'user orders, page 50', who: 'heavy', path: `${u}/orders?page=50`, explain: true },
    { name: 'user orders, status Completed', who: 'heavy', path: `${u}/orders?status=Completed`, explain: true },
    { name: 'user orders, status In progress', who: 'heavy', path: `${u}/orders?status=In%20progress`, explain: true },
    { name: 'user orders, status Canceled', who: 'heavy', path: `${u}/orders?status=Canceled`, explain: true },
    { name: 'user orders, search link', who: 'heavy', path: `${u}/orders?search=${encodeURIComponent(ids.linkPiece)}`, explain: true },
    { name: 'user orders, search #id', who: 'heavy', path: `${u}/orders?search=${encodeURIComponent(`#${ids.heavyOrderId}`)}`, explain: true },
    { name: 'user order detail', who: 'heavy', path: `${u}/orders/${ids.heavyOrderId}`, explain: true },
    { name: 'user transactions, page 1', who: 'heavy', path: `${u}/transactions`, explain: true },
    { name: 'user transactions, page 50', who: 'heavy', path: `${u}/transactions?page=50`, explain: true },
    { name: 'user transactions, deposits', who: 'heavy', path: `${u}/transactions?type=1`, explain: true },
    { name: 'user transactions, last 30 days', who: 'heavy', path: `${u}/transactions?from=${ids.from}&to=${ids.to}`, explain: true },
    { name: 'user wallet summary', who: 'heavy', path: `${u}/wallet-summary`, explain: true },
    { name: 'user wallet summary, last 30 days', who: 'heavy', path: `${u}/wallet-summary?from=${ids.from}&to=${ids.to}`, explain: true },
    { name: 'user tickets', who: 'heavy', path: `${u}/tickets`, explain: true },
    { name: 'user tickets unread', who: 'heavy', path: `${u}/tickets/unread` },
    { name: 'user notifications (bell)', who: 'heavy', path: `${u}/notifications`, explain: true },
    { name: 'user referrals', who: 'heavy', path: `${u}/referrals`, explain: true },
    { name: 'user favorites', who: 'heavy', path: `${u}/favorites` },
    { name: 'user api keys', who: 'heavy', path: `${u}/api-keys` },
    // ------------------------------------------------ a light user
    { name: 'light user orders, page 1', who: 'light', path: `${u}/orders` },
    { name: 'light user transactions', who: 'light', path: `${u}/transactions` },
    { name: 'light user notifications', who: 'light', path: `${u}/notifications` },
    // ------------------------------------------------ public
    { name: 'services list (public, page 1)', who: 'public', path: '/api/v1/services?limit=100' },
    { name: 'services list (public, search)', who: 'public', path: '/api/v1/services?search=zebra&limit=100' },
    // ------------------------------------------------ admin
    { name: 'admin dashboard, day', who: 'admin', path: `${a}/dashboard?period=day`, explain: true },
    { name: 'admin dashboard, week', who: 'admin', path: `${a}/dashboard?period=week`, explain: true },
    { name: 'admin dashboard, month', who: 'admin', path: `${a}/dashboard?period=month`, explain: true },
    { name: 'admin dashboard money', who: 'admin', path: `${a}/dashboard/money`, explain: true },
    { name: 'admin users, newest', who: 'admin', path: `${a}/users`, explain: true },
    { name: 'admin users, page 100', who: 'admin', path: `${a}/users?page=100`, explain: true },
    { name: 'admin users, search email', who: 'admin', path: `${a}/users?search=${encodeURIComponent(ids.emailPiece)}`, explain: true },
    { name: 'admin users, suspended', who: 'admin', path: `${a}/users?status=suspended`, explain: true },
    { name: 'admin users, by balance', who: 'admin', path: `${a}/users?sort=balance`, explain: true },
    { name: 'admin users, by last login', who: 'admin', path: `${a}/users?sort=last_login`, explain: true },
    { name: 'admin users, by name', who: 'admin', path: `${a}/users?sort=name`, explain: true },
    { name: 'admin user detail (heavy)', who: 'admin', path: `${a}/getUserDeta/${ids.heavyUserId}`, explain: true },
    { name: 'admin orders, page 1', who: 'admin', path: `${a}/orders`, explain: true },
    { name: 'admin orders, page 100', who: 'admin', path: `${a}/orders?page=100`, explain: true },
  ];
  for (const status of ['Pending Submission', 'Pending', 'In progress', 'Processing', 'Completed', 'Partial', 'Canceled'])
    calls.push({ name: `admin orders, status ${status}`, who: 'admin', path: `${a}/orders?status=${encodeURIComponent(status)}`, explain: true });
  calls.push(
    { name: 'admin orders, submission unknown', who: 'admin', path: `${a}/orders?submission=unknown`, explain: true },
    { name: 'admin orders, search link', who: 'admin', path: `${a}/orders?search=${encodeURIComponent(ids.linkPiece)}`, explain: true },
    { name: 'admin orders, search tiktok', who: 'admin', path: `${a}/orders?search=tiktok`, explain: true },
    { name: 'admin orders, search #id', who: 'admin', path: `${a}/orders?search=${encodeURIComponent(`#${ids.heavyOrderId}`)}`, explain: true },
    { name: 'admin orders, by user (heavy)', who: 'admin', path: `${a}/orders?userId=${ids.heavyUserId}`, explain: true },
    { name: 'admin orders, by service', who: 'admin', path: `${a}/orders?serviceId=${ids.serviceId}`, explain: true },
    { name: 'admin orders, by provider', who: 'admin', path: `${a}/orders?providerId=${ids.providerId}`, explain: true },
    { name: 'admin orders, last 30 days', who: 'admin', path: `${a}/orders?from=${ids.from}&to=${ids.to}`, explain: true },
    { name: 'admin order detail', who: 'admin', path: `${a}/orders/${ids.heavyOrderId}`, explain: true },
    { name: 'admin transactions, page 1', who: 'admin', path: `${a}/transactions`, explain: true },
    { name: 'admin transactions, page 100', who: 'admin', path: `${a}/transactions?page=100`, explain: true },
    { name: 'admin transactions, source payment', who: 'admin', path: `${a}/transactions?source=payment`, explain: true },
    { name: 'admin transactions, source order_refund', who: 'admin', path: `${a}/transactions?source=order_refund`, explain: true },
    { name: 'admin transactions, by user (heavy)', who: 'admin', path: `${a}/transactions?userId=${ids.heavyUserId}`, explain: true },
    { name: 'admin transactions, search', who: 'admin', path: `${a}/transactions?search=${encodeURIComponent(ids.emailPiece)}`, explain: true },
    { name: 'admin transactions, last 30 days', who: 'admin', path: `${a}/transactions?from=${ids.from}&to=${ids.to}`, explain: true },
    // "Export CSV" writes its file on the admin-jobs queue (exports.ts writes both before the calls): the screen reads the
    // export until it is done, then downloads the file, gzipped as the browser takes it.
    ...(ids.exportIds
      ? [
          { name: 'admin transactions export (its state)', who: 'admin' as Who, path: `${a}/transactions/exports/${ids.exportIds.all}` },
          { name: 'admin transactions export (its file)', who: 'admin' as Who, path: `${a}/transactions/exports/${ids.exportIds.all}/file` },
          { name: 'admin transactions export, by user (its file)', who: 'admin' as Who, path: `${a}/transactions/exports/${ids.exportIds.byUser}/file` },
        ]
      : []),
    { name: 'admin pending payments', who: 'admin', path: `${a}/payments/pending`, explain: true },
    { name: 'admin reconciliation, since the last clean run', who: 'admin', path: `${a}/reconciliation?scope=recent`, explain: true },
    // "Check everything" runs on the admin-jobs queue (full-check.ts runs it before the calls): the screen reads its run.
    { name: 'admin reconciliation, everything (its run)', who: 'admin', path: `${a}/reconciliation/full`, explain: true },
    { name: 'admin audit, page 1', who: 'admin', path: `${a}/audit`, explain: true },
    { name: 'admin audit, action wallet', who: 'admin', path: `${a}/audit?action=wallet`, explain: true },
    { name: 'admin audit, last 30 days', who: 'admin', path: `${a}/audit?from=${ids.from}&to=${ids.to}`, explain: true },
    { name: 'admin audit entry', who: 'admin', path: `${a}/audit/${ids.auditId}` },
    { name: 'admin audit actors', who: 'admin', path: `${a}/audit/actors`, explain: true },
    { name: 'admin tickets, page 1', who: 'admin', path: `${a}/tickets`, explain: true },
    { name: 'admin tickets, status Open', who: 'admin', path: `${a}/tickets?status=Open`, explain: true },
    { name: 'admin tickets, search', who: 'admin', path: `${a}/tickets?search=${encodeURIComponent(ids.emailPiece)}`, explain: true },
    { name: 'admin tickets unread', who: 'admin', path: `${a}/tickets/unread`, explain: true },
    { name: 'admin ticket detail', who: 'admin', path: `${a}/tickets/${ids.anyTicketId}`, explain: true },
    { name: 'admin referrals', who: 'admin', path: `${a}/referrals`, explain: true },
    { name: 'admin referrals, by user (heavy)', who: 'admin', path: `${a}/referrals?userId=${ids.heavyUserId}`, explain: true },
    { name: 'admin services, page 1', who: 'admin', path: `${a}/services`, explain: true },
    { name: 'admin services, search', who: 'admin', path: `${a}/services?search=zebra`, explain: true },
    { name: 'admin services, by provider', who: 'admin', path: `${a}/services?providerId=${ids.providerId}`, explain: true },
    { name: 'admin services, disabled', who: 'admin', path: `${a}/services?enabled=false`, explain: true },
    { name: 'admin service warnings', who: 'admin', path: `${a}/services/warnings`, explain: true },
    { name: 'admin providers', who: 'admin', path: `${a}/providers`, explain: true },
    { name: 'admin administrators', who: 'admin', path: `${a}/administrators` },
  );
  if (ids.heavyTicketId !== null) calls.push({ name: 'user ticket detail', who: 'heavy', path: `${u}/tickets/${ids.heavyTicketId}` });
  return calls;
}
