// The API page's webhooks against a stubbed API: endpoints listed with their events, a new one's signing secret shown
// once, the server's refusal of an address said under the field, Send test followed in the delivery log until the
// endpoint answered, deleting only after a confirmation, and the log's state badges.

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { webhookSignatureRecipe } from '@/features/user/apiDocs';
import { WebhookDocs } from '@/features/user/WebhookDocs';
import { WebhooksSection } from '@/features/user/WebhooksSection';
import { AuthContext } from '@/lib/authContext';
import type { SessionUser } from '@/lib/session';
import { ADA } from '../app';
import { authStub, describedText, jsonResponse, mockFetch, renderScreen } from '../helpers';

const ALL_EVENTS = ['order.status', 'refill.status', 'balance.low'];
const SHOP = { id: 11, url: 'https://shop.example.com/hooks/smm?source=panel', events: ALL_EVENTS, createdAt: '2024-03-05T10:00:00.000Z' };
const BOT = { id: 12, url: 'https://bot.example.net/', events: ['order.status'], createdAt: '2024-03-06T10:00:00.000Z' };
const SECRET = `whsec_${'a1'.repeat(24)}`;

const ORDER_BODY = JSON.stringify({
  event: 'order.status',
  createdAt: '2024-03-07T09:00:00.000Z',
  data: { order: 23501, charge: '2775.00', start_count: '3572', status: 'Completed', remains: '0', currency: 'NGN' },
});

type Delivery = {
  id: number;
  endpointId: number;
  event: string;
  state: 'new' | 'sending' | 'delivered' | 'failed';
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  body: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
};
const REFILL_BODY = JSON.stringify({ event: 'refill.status', createdAt: '2024-03-07T10:00:00.000Z', data: { refill: 7, order: 23501, status: 'Completed' } });
const TEST_BODY = JSON.stringify({ event: 'webhook.test', createdAt: '2024-03-07T11:00:00.000Z', data: { message: 'A test' } });
const delivery = (fields: Partial<Delivery> & Pick<Delivery, 'id' | 'state'>): Delivery => ({
  endpointId: SHOP.id,
  event: 'order.status',
  attempts: 0,
  responseStatus: null,
  error: null,
  body: ORDER_BODY,
  createdAt: new Date().toISOString(),
  lastAttemptAt: null,
  deliveredAt: null,
  ...fields,
});

const LOG = [
  delivery({ id: 5, state: 'new', body: null }),
  delivery({ id: 4, state: 'sending', event: 'webhook.test', endpointId: BOT.id, body: TEST_BODY }),
  delivery({ id: 3, state: 'sending', attempts: 2, responseStatus: 500, error: 'The endpoint answered HTTP 500' }),
  delivery({ id: 2, state: 'failed', attempts: 20, error: 'The endpoint could not be reached; given up after 20 tries over a day' }),
  delivery({ id: 1, state: 'delivered', attempts: 1, responseStatus: 204, event: 'refill.status', body: REFILL_BODY }),
];

/** The webhooks API: `state` is what GET answers now (tests change it between reads); POST answers come from `createAnswer`. */
function stubApi({
  endpoints = [SHOP, BOT] as unknown[],
  deliveries = [] as Delivery[],
  createAnswer = () =>
    jsonResponse(201, {
      message: 'Webhook added',
      data: { id: 13, url: 'https://hooks.example.org/in', events: ALL_EVENTS, createdAt: '2024-03-08T10:00:00.000Z', secret: SECRET },
    }),
} = {}) {
  const state = { endpoints, deliveries };
  const fetch = mockFetch((url, init) => {
    if (url.endsWith('/test')) return jsonResponse(200, { message: 'Test event sent', data: { deliveryId: 6 } });
    if (init.method === 'DELETE') return jsonResponse(200, { message: 'Webhook deleted' });
    if (init.method === 'POST') return createAnswer();
    return jsonResponse(200, { message: 'Webhooks fetched successfully', data: state.endpoints, deliveries: state.deliveries });
  });
  const calls = (method: string, path: string) => fetch.mock.calls.filter(([url, i]) => url === `/api/v1/${path}` && (i?.method ?? 'GET') === method);
  return { fetch, state, calls };
}

function openSection(api: Parameters<typeof stubApi>[0] = {}, me: SessionUser = ADA, user = userEvent.setup()) {
  const server = stubApi(api);
  renderScreen(
    <AuthContext.Provider value={authStub({ user: me, userType: 2 })}>
      <WebhooksSection />
    </AuthContext.Provider>,
    '/user/api',
    'user-token',
  );
  return { ...server, user };
}

const deliveryTable = () => screen.findByRole('table', { name: 'Recent deliveries' });
/** Each row of the log as Event, Endpoint, State, Result, Tries. */
const logRows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    // The event cell's first line is the event; its second, what it was about (logSubjects).
    .map((row) => [...row.querySelectorAll('td')].slice(0, 5).map((cell, at) => (at === 0 ? cell.querySelector('span > span') : cell)?.textContent));
/** The event cells' second line: what each delivery was about, read from its body. */
const logSubjects = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelector('td')?.querySelector('span > span + span')?.textContent ?? null);

describe('webhooks section', () => {
  it('lists the endpoints with their events, and the log with a badge for each state', async () => {
    const { user } = openSection({ deliveries: LOG });
    const list = await screen.findByRole('list', { name: 'Webhooks' });
    const rows = [...list.children] as HTMLElement[];
    expect(rows.map((row) => row.querySelector('p')?.textContent)).toEqual([SHOP.url, BOT.url]);
    expect(within(rows[0]).getByRole('list', { name: 'Events' }).textContent).toBe(ALL_EVENTS.join(''));
    expect(within(rows[1]).getByRole('list', { name: 'Events' }).textContent).toBe('order.status');
    expect(within(rows[0]).getByRole('button', { name: `Send a test to ${SHOP.url}` })).toBeTruthy();
    expect(within(rows[0]).getByRole('button', { name: `Delete ${SHOP.url}` })).toBeTruthy();

    const table = await deliveryTable();
    expect(logRows(table)).toEqual([
      ['order.status', 'shop.example.com/hooks/smm', 'Queued', 'Not sent yet', '0'],
      ['webhook.test', 'bot.example.net', 'Queued', 'Not sent yet', '0'],
      ['order.status', 'shop.example.com/hooks/smm', 'Retrying', 'The endpoint answered HTTP 500', '2'],
      ['order.status', 'shop.example.com/hooks/smm', 'Failed', 'The endpoint could not be reached; given up after 20 tries over a day', '20'],
      ['refill.status', 'shop.example.com/hooks/smm', 'Delivered', 'HTTP 204', '1'],
    ]);
    expect(logSubjects(table)).toEqual([null, null, 'Order #23501: Completed', 'Order #23501: Completed', 'Refill #7 of order #23501: Completed']);
    const badge = (label: string) => within(table).getByText(label, { selector: 'span' }).className;
    expect(badge('Delivered')).toContain('emerald');
    expect(badge('Retrying')).toContain('amber');
    expect(badge('Failed')).toContain('rose');
    expect(within(table).getAllByText('Queued', { selector: 'span' })[0].className).toContain('slate');

    // The body as we signed it, pretty-printed once opened; one not yet built has none to show.
    const deliveredRow = within(table).getAllByRole('row').at(-1) as HTMLElement;
    await user.click(within(deliveredRow).getByText('Body'));
    expect(deliveredRow.querySelector('pre')?.textContent).toBe(JSON.stringify(JSON.parse(REFILL_BODY), null, 2));
    expect(within(within(table).getAllByRole('row')[1]).queryByText('Body')).toBeNull();
    // Phones get the same log as cards.
    expect(within(screen.getByRole('list', { name: 'Recent deliveries' })).getAllByRole('listitem')).toHaveLength(LOG.length);
  });

  it('adds a webhook with the events ticked, and shows its secret once', async () => {
    const { user, calls } = openSection();
    await screen.findByRole('list', { name: 'Webhooks' });
    const boxes = ALL_EVENTS.map((event) => screen.getByRole('checkbox', { name: event }) as HTMLInputElement);
    expect(boxes.map((box) => box.checked)).toEqual([true, true, true]);
    expect(describedText(boxes[2])).toBe('Your balance falls below your low-balance alert');

    await user.type(screen.getByLabelText('Endpoint URL'), '  https://hooks.example.org/in ');
    await user.click(boxes[2]);
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your webhook signing secret' });
    const [[, init]] = calls('POST', 'user/webhooks');
    expect(JSON.parse(String(init?.body))).toEqual({ url: 'https://hooks.example.org/in', events: ['order.status', 'refill.status'] });
    expect(dialog.textContent).toContain('it will not be shown again');
    expect((within(dialog).getByLabelText('Signing secret') as HTMLInputElement).value).toBe(SECRET);
    await user.click(within(dialog).getByRole('button', { name: 'Copy signing secret' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
    // The form is ready for another, every event ticked again, and the list was read again.
    expect((screen.getByLabelText('Endpoint URL') as HTMLInputElement).value).toBe('');
    expect(boxes.map((box) => box.checked)).toEqual([true, true, true]);
    expect(calls('GET', 'user/webhooks').length).toBeGreaterThan(1);
  });

  it('asks for at least one event before sending anything', async () => {
    const { user, calls } = openSection();
    await user.type(screen.getByLabelText('Endpoint URL'), 'https://hooks.example.org/in');
    for (const event of ALL_EVENTS) await user.click(screen.getByRole('checkbox', { name: event }));
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByText('Choose at least one event')).toBeTruthy();
    expect(calls('POST', 'user/webhooks')).toHaveLength(0);
  });

  it("shows the server's refusal of an address under the field, and no secret", async () => {
    const error = vi.spyOn(toast, 'error');
    const refusal = 'Webhook URL must start with https://';
    const { user } = openSection({ createAnswer: () => jsonResponse(400, { message: refusal, error: 'Bad Request' }) });
    const field = screen.getByLabelText('Endpoint URL');
    await user.type(field, 'http://hooks.example.org/in');
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    await waitFor(() => expect(describedText(field)).toBe(refusal));
    expect(error).toHaveBeenCalledWith(refusal);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends a test to the route, then follows it in the log until the endpoint has answered, and stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user, state, calls } = openSection({}, ADA, userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));
    expect(await screen.findByText('Nothing sent yet. Send a test to see one here.')).toBeTruthy();

    state.deliveries = [delivery({ id: 6, state: 'sending', event: 'webhook.test' })];
    await user.click(screen.getByRole('button', { name: `Send a test to ${SHOP.url}` }));
    await waitFor(() => expect(calls('POST', 'user/webhooks/11/test')).toHaveLength(1));
    const table = await deliveryTable();
    await waitFor(() => expect(logRows(table)).toEqual([['webhook.test', 'shop.example.com/hooks/smm', 'Queued', 'Not sent yet', '0']]));

    state.deliveries = [delivery({ id: 6, state: 'delivered', event: 'webhook.test', attempts: 1, responseStatus: 200 })];
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    await waitFor(() => expect(logRows(table)).toEqual([['webhook.test', 'shop.example.com/hooks/smm', 'Delivered', 'HTTP 200', '1']]));

    // Nothing is on its way any more: no more reads.
    const reads = calls('GET', 'user/webhooks').length;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(calls('GET', 'user/webhooks')).toHaveLength(reads);
  });

  it('deletes a webhook only after a confirmation', async () => {
    const { user, calls } = openSection();
    await user.click(await screen.findByRole('button', { name: `Delete ${BOT.url}` }));
    await user.click(await screen.findByRole('button', { name: 'No' }));
    expect(calls('DELETE', 'user/webhooks/12')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: `Delete ${BOT.url}` }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls('DELETE', 'user/webhooks/12')).toHaveLength(1));
  });

  it('shuts the form with a note once the account has five webhooks, or its address is unconfirmed', async () => {
    const five = [1, 2, 3, 4, 5].map((id) => ({ ...BOT, id, url: `https://bot${id}.example.net/` }));
    openSection({ endpoints: five });
    expect(await screen.findByText('You have 5 webhooks, the most an account can have. Delete one to add another.')).toBeTruthy();
    expect(screen.getByLabelText('Endpoint URL').matches(':disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Add webhook' }).matches(':disabled')).toBe(true);
  });

  it('keeps the form shut for an unconfirmed address', async () => {
    openSection({ endpoints: [] }, { ...ADA, emailVerified: false });
    expect(await screen.findByText('No webhooks yet')).toBeTruthy();
    expect(screen.getByText(/Confirm your email address to add webhooks/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add webhook' }).matches(':disabled')).toBe(true);
  });
});

describe('webhook documentation', () => {
  it('shows the signature recipe step by step, as exported for the Worker test', () => {
    renderScreen(<WebhookDocs />, '/user/api');
    const steps = within(screen.getByRole('list', { name: 'How to check a webhook signature' })).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([...webhookSignatureRecipe]);
    expect(screen.getByRole('table', { name: 'Webhook headers' }).textContent).toMatch(/X-Webhook-Signature.*X-Webhook-Event.*X-Webhook-Delivery/);
    expect(screen.getByLabelText('order.status example body').textContent).toContain('"start_count": "3572"');
    expect(screen.getByLabelText('Node.js webhook example').textContent).toContain('timingSafeEqual');
    expect(screen.getByLabelText('PHP webhook example').textContent).toContain('hash_equals');
  });
});
