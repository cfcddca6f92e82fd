// Support tickets through the real Worker and Postgres: opening one about one's own order or
// deposit only, the thread and its statuses from both sides, unread counts, the admin filters,
// assigning, closing, the per-user limits and the message length, and markup kept as text.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentIntents, tickets } from '../../../drizzle/schema';
import { MAX_AWAITING_TICKETS, TICKET_MESSAGES_PER_MINUTE, TICKETS_OPENED_PER_10_MINUTES } from '../../../worker/services/support/tickets';
import { auditEntries, call, createAdmin, registerAndLogin, type TestAccount, unique, withDb } from '../../support/api';
import { newLink, placeOrder } from '../fixtures/order-fixtures';
import { FAKE, newShop } from '../fixtures/shop-fixtures';
import { fundedUser } from '../fixtures/wallet-fixtures';

const openTicket = (user: TestAccount, body: Record<string, unknown>) =>
  call('user/tickets', { token: user.accessToken, body: { subject: 'Where is my order?', kind: 'other', message: 'Please help.', ...body } });
const reply = (account: TestAccount, path: string, message: string) => call(`${path}/messages`, { token: account.accessToken, body: { message } });
const userUnread = async (user: TestAccount) => (await call('user/tickets/unread', { token: user.accessToken })).body.data.unread as number;
const adminRow = async (admin: TestAccount, userId: number, ticketId: number) =>
  (await call(`admin/tickets?userId=${userId}`, { token: admin.accessToken })).body.data.find((t: { id: number }) => t.id === ticketId);

async function depositOf(userId: number): Promise<string> {
  const reference = unique('dep');
  await withDb((db) => db.insert(paymentIntents).values({ reference, userId, provider: 'paystack', amountKobo: 500_000n, status: 'failed' }));
  return reference;
}

describe('opening a ticket', () => {
  it('ties it to one of the caller’s own orders or deposits and refuses anyone else’s or an unknown one', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const owner = await fundedUser(1_000_000n);
    const stranger = await registerAndLogin();
    const placed = await placeOrder(owner, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 100 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const orderId = placed.body.data.id as number;

    const opened = await openTicket(owner, { kind: 'order', orderId, subject: 'Order not started', message: 'It is still pending.' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect(opened.body.data).toMatchObject({
      subject: 'Order not started',
      kind: 'order',
      status: 'Open',
      unread: false,
      orderId,
      paymentReference: null,
      order: { id: orderId, serviceName: placed.body.data.serviceName, link: placed.body.data.link, charge: placed.body.data.charge },
      messages: [{ fromStaff: false, body: 'It is still pending.', authorName: 'Test User' }],
    });
    expect(opened.body.data.id).toEqual(expect.any(Number));

    const theirs = await openTicket(stranger, { kind: 'order', orderId });
    expect(theirs.status).toBe(400);
    expect(theirs.body).toMatchObject({ message: 'Please choose one of your orders.', error: 'Bad Request' });
    expect((await openTicket(owner, { kind: 'order', orderId: 2_000_000_000 })).body.message).toBe('Please choose one of your orders.');

    const reference = await depositOf(owner.id);
    const unknownDeposit = await openTicket(owner, { kind: 'payment', paymentReference: unique('nope') });
    expect(unknownDeposit.status).toBe(400);
    expect(unknownDeposit.body.message).toBe('Please choose one of your deposits.');
    expect((await openTicket(stranger, { kind: 'payment', paymentReference: reference })).body.message).toBe('Please choose one of your deposits.');
    const aboutDeposit = await openTicket(owner, { kind: 'payment', paymentReference: reference, subject: 'Paid but not credited' });
    expect(aboutDeposit.status, JSON.stringify(aboutDeposit.body)).toBe(201);
    expect(aboutDeposit.body.data).toMatchObject({
      paymentReference: reference,
      orderId: null,
      payment: { reference, amount: '5000.00', status: 'failed', provider: 'paystack' },
    });

    // A deposit goes with Payment, an order with Order or Refill.
    expect((await openTicket(owner, { kind: 'other', orderId })).status).toBe(400);
    expect((await openTicket(owner, { kind: 'order', paymentReference: reference })).status).toBe(400);
    expect((await openTicket(owner, { kind: 'complaint' })).status).toBe(400);
    // No ticket of the stranger's came from any of this.
    expect((await call('user/tickets', { token: stranger.accessToken })).body.total).toBe(0);
    expect((await call(`user/tickets/${opened.body.data.id}`, { token: stranger.accessToken })).status).toBe(404);
  });
});

describe('a ticket thread', () => {
  it('goes Open, Answered, Customer reply and Closed as both sides write, with each side’s unread count', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin({ fullName: 'Ada Ticket' });
    const opened = await openTicket(user, { subject: 'Refill please', kind: 'refill' });
    const id = opened.body.data.id as number;
    const userPath = `user/tickets/${id}`;
    const adminPath = `admin/tickets/${id}`;

    // A second message before any answer leaves the ticket Open.
    expect((await reply(user, userPath, 'Any news?')).body.data.status).toBe('Open');
    expect(await adminRow(admin, user.id, id)).toMatchObject({
      status: 'Open',
      unread: true,
      assignedTo: null,
      user: { id: user.id, fullName: 'Ada Ticket', email: user.email },
    });
    expect((await call('admin/tickets/unread', { token: admin.accessToken })).body.data.unread).toBeGreaterThanOrEqual(1);
    // Reading it marks it read for support.
    const read = await call(adminPath, { token: admin.accessToken });
    expect(read.body.data).toMatchObject({ unread: false, messages: [{ body: 'Please help.' }, { body: 'Any news?' }] });
    expect(await adminRow(admin, user.id, id)).toMatchObject({ unread: false });
    expect(await userUnread(user)).toBe(0);

    const answered = await reply(admin, adminPath, 'Refill requested.');
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    // The first administrator to answer takes the ticket; administrators see who wrote.
    expect(answered.body.data).toMatchObject({ status: 'Answered', assignedTo: { id: admin.id, fullName: 'Test Admin' } });
    expect(answered.body.data.messages.at(-1)).toMatchObject({ fromStaff: true, authorName: 'Test Admin', body: 'Refill requested.' });
    expect(await userUnread(user)).toBe(1);
    const userList = await call('user/tickets', { token: user.accessToken });
    expect(userList.body.data).toEqual([expect.objectContaining({ id, status: 'Answered', unread: true, lastMessageAt: expect.any(String) })]);
    expect(userList.body.data[0]).not.toHaveProperty('assignedTo');

    // The user reads it (support signs as the desk), and the badge goes.
    const seen = await call(userPath, { token: user.accessToken });
    expect(seen.body.data.messages.at(-1)).toMatchObject({ fromStaff: true, authorName: 'Support' });
    expect(await userUnread(user)).toBe(0);

    expect((await reply(user, userPath, 'Thanks, it dropped again.')).body.data.status).toBe('Customer reply');
    expect(await adminRow(admin, user.id, id)).toMatchObject({ status: 'Customer reply', unread: true });

    const closed = await call(`${adminPath}/close`, { token: admin.accessToken, method: 'POST' });
    expect(closed.body.data).toMatchObject({ status: 'Closed', closedAt: expect.any(String), unread: false });
    const again = await call(`${adminPath}/close`, { token: admin.accessToken, method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This ticket is already closed.');
    // A closed ticket takes no more from its user: a new problem is a new ticket.
    const late = await reply(user, userPath, 'One more thing');
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('This ticket is closed. Please open a new ticket if you still need help.');
    // Support may still follow up, which opens it again.
    expect((await reply(admin, adminPath, 'Following up.')).body.data).toMatchObject({ status: 'Answered', closedAt: null });

    const audit = await auditEntries({ targetType: 'ticket', targetId: id });
    expect(audit.map((row) => [row.action, row.actorId])).toEqual([
      ['ticket.reply', admin.id],
      ['ticket.close', admin.id],
      ['ticket.reply', admin.id],
    ]);
  });

  it('keeps markup as the text it was sent, up to 5,000 characters', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const markup = '<img src=x onerror="alert(1)"><script>alert(2)</script> & <b>bold</b>';
    const opened = await openTicket(user, { subject: '<h1>Subject</h1>', message: markup });
    expect(opened.status).toBe(201);
    expect(opened.headers.get('content-type')).toMatch(/^application\/json/);
    expect(opened.body.data).toMatchObject({ subject: '<h1>Subject</h1>', messages: [{ body: markup }] });
    expect((await call(`admin/tickets/${opened.body.data.id}`, { token: admin.accessToken })).body.data.messages[0].body).toBe(markup);

    const path = `user/tickets/${opened.body.data.id}`;
    expect((await reply(user, path, 'x'.repeat(5000))).status).toBe(200);
    const tooLong = await reply(user, path, 'x'.repeat(5001));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('Message must be at most 5000 characters');
    expect((await reply(user, path, '   ')).body.message).toBe('Please write a message');
    expect((await call(`admin/tickets/${opened.body.data.id}`, { token: admin.accessToken })).body.data.messages).toHaveLength(2);
  });
});

describe('the support desk', () => {
  it('filters by status, user and text, and lets an administrator take a ticket', async () => {
    const [first, second] = [await createAdmin(), await createAdmin()];
    const ada = await registerAndLogin({ fullName: 'Ada Filter' });
    const ben = await registerAndLogin({ fullName: 'Ben Filter' });
    const adaOpen = (await openTicket(ada, { subject: `Ada open #${ada.id}#` })).body.data.id;
    const adaClosed = (await openTicket(ada, { subject: 'Ada closed' })).body.data.id;
    const benOpen = (await openTicket(ben, { subject: 'Ben open' })).body.data.id;
    await call(`admin/tickets/${adaClosed}/close`, { token: first.accessToken, method: 'POST' });

    const ids = async (query: string) => (await call(`admin/tickets?${query}`, { token: first.accessToken })).body.data.map((t: { id: number }) => t.id);
    expect(await ids(`userId=${ada.id}`)).toEqual([adaClosed, adaOpen]);
    expect(await ids(`userId=${ada.id}&status=Open`)).toEqual([adaOpen]);
    expect(await ids(`userId=${ada.id}&status=Closed`)).toEqual([adaClosed]);
    expect(await ids(`search=${encodeURIComponent(ben.email)}`)).toEqual([benOpen]);
    // By subject as well as by owner.
    expect(await ids(`search=${encodeURIComponent(`open #${ada.id}#`)}`)).toEqual([adaOpen]);
    expect((await call('admin/tickets?status=Pending', { token: first.accessToken })).status).toBe(400);

    const taken = await call(`admin/tickets/${benOpen}/assign`, { token: first.accessToken, method: 'POST' });
    expect(taken.body.data.assignedTo).toMatchObject({ id: first.id });
    const retaken = await call(`admin/tickets/${benOpen}/assign`, { token: second.accessToken, method: 'POST' });
    expect(retaken.body.data.assignedTo).toMatchObject({ id: second.id });
    const audit = await auditEntries({ action: 'ticket.assign', targetId: benOpen });
    expect(audit.map((row) => [row.actorId, row.details])).toEqual([
      [first.id, { previousAssignee: null }],
      [second.id, { previousAssignee: first.id }],
    ]);

    // Users never reach the desk, and administrators' ids never match another's ticket through user/.
    expect((await call('admin/tickets', { token: ada.accessToken })).status).toBe(403);
    expect((await call(`admin/tickets/${adaOpen}/close`, { token: ben.accessToken, method: 'POST' })).status).toBe(403);
    expect((await call(`user/tickets/${benOpen}/messages`, { token: ada.accessToken, body: { message: 'hi' } })).status).toBe(404);
    expect((await call('admin/tickets/2000000000', { token: first.accessToken })).status).toBe(404);
  });
});

describe('limits per user', () => {
  it(`allows ${MAX_AWAITING_TICKETS} tickets waiting for support at once`, async () => {
    const user = await registerAndLogin();
    await withDb((db) =>
      db.insert(tickets).values(Array.from({ length: MAX_AWAITING_TICKETS }, (_, i) => ({ userId: user.id, subject: `Seeded ${i}`, kind: 'other' as const }))),
    );
    const refused = await openTicket(user, {});
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `You already have ${MAX_AWAITING_TICKETS} tickets waiting for an answer. Please wait for our reply, or add to one of them.`,
    );
    // One answered: it waits for the user now, so there is room again.
    await withDb((db) =>
      db
        .update(tickets)
        .set({ status: 'Answered' })
        .where(and(eq(tickets.userId, user.id), eq(tickets.subject, 'Seeded 0'))),
    );
    expect((await openTicket(user, {})).status).toBe(201);
  });

  it('rate limits opening and replying per user', async () => {
    const user = await registerAndLogin();
    const other = await registerAndLogin();
    const opened: number[] = [];
    for (let i = 0; i < TICKETS_OPENED_PER_10_MINUTES; i += 1) {
      const response = await openTicket(user, { subject: `Ticket ${i}` });
      expect(response.status).toBe(201);
      opened.push(response.body.data.id);
    }
    const tooMany = await openTicket(user, {});
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.error).toBe('Too Many Requests');
    expect((await openTicket(other, {})).status).toBe(201);

    const path = `user/tickets/${opened[0]}`;
    for (let i = 0; i < TICKET_MESSAGES_PER_MINUTE; i += 1) expect((await reply(user, path, `Reply ${i}`)).status).toBe(200);
    expect((await reply(user, path, 'One too many')).status).toBe(429);
    // Nothing of the refused reply was kept.
    expect((await call(path, { token: user.accessToken })).body.data.messages.at(-1).body).toBe(`Reply ${TICKET_MESSAGES_PER_MINUTE - 1}`);
  });
});
