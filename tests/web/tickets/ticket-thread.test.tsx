// A ticket's thread shows what people typed as text: markup in a subject or a message becomes no
// element, line breaks stay, and the user's reply goes to the server as typed.

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { TicketDetail } from '@/api/tickets';
import TicketPage from '@/features/tickets/TicketPage';
import { jsonResponse, mockFetch, WithQuery } from '../helpers';

const MARKUP = '<img src=x onerror="window.hacked=1"><script>window.hacked=2</script><b>bold</b>\nsecond line';

const TICKET: TicketDetail = {
  id: 5,
  subject: '<h1>Where</h1> is my order?',
  kind: 'order',
  status: 'Answered',
  unread: false,
  orderId: 9,
  paymentReference: null,
  lastMessageAt: '2026-11-02T10:00:00Z',
  closedAt: null,
  created_at: '2026-11-02T09:00:00Z',
  order: {
    id: 9,
    serviceName: '<i>Instagram</i> Followers',
    status: 'Pending',
    link: 'https://instagram.com/brand',
    charge: '1500.00',
    created_at: '2026-11-01T00:00:00Z',
  },
  payment: null,
  messages: [
    { id: 1, fromStaff: false, authorName: 'Ada Obi', body: MARKUP, created_at: '2026-11-02T09:00:00Z' },
    { id: 2, fromStaff: true, authorName: 'Support', body: 'We are on it <a href="https://evil.example">here</a>', created_at: '2026-11-02T10:00:00Z' },
  ],
};

function server() {
  const sent: unknown[] = [];
  mockFetch((url, init) => {
    if (init.method === 'POST' && url.includes('user/tickets/5/messages')) {
      const body = JSON.parse(String(init.body));
      sent.push(body);
      return jsonResponse(200, {
        message: 'Reply sent',
        data: {
          ...TICKET,
          status: 'Customer reply',
          messages: [...TICKET.messages, { id: 3, fromStaff: false, authorName: 'Ada Obi', body: body.message, created_at: '2026-11-02T11:00:00Z' }],
        },
      });
    }
    if (url.includes('user/tickets/5')) return jsonResponse(200, { data: TICKET });
    if (url.includes('user/tickets/unread')) return jsonResponse(200, { data: { unread: 0 } });
    if (url.includes('settings')) return jsonResponse(200, {});
    return jsonResponse(404, {});
  });
  return sent;
}

function renderTicket() {
  const router = createMemoryRouter([{ path: '/user/tickets/:id', element: <TicketPage /> }], { initialEntries: ['/user/tickets/5'] });
  return render(
    <WithQuery>
      <RouterProvider router={router} />
    </WithQuery>,
  );
}

describe('a ticket thread', () => {
  it('shows markup in the subject, the order and the messages as the text it is, with its line breaks', async () => {
    server();
    const { container } = renderTicket();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('<h1>Where</h1> is my order?');
    const messages = screen.getByRole('list', { name: 'Messages' });
    const paragraphs = within(messages)
      .getAllByRole('article')
      .map((article) => article.querySelector('p')!);
    expect(paragraphs.map((p) => p.textContent)).toEqual([MARKUP, 'We are on it <a href="https://evil.example">here</a>']);
    expect(paragraphs[0].className).toContain('whitespace-pre-wrap');
    expect(screen.getByText('<i>Instagram</i> Followers')).toBeTruthy();
    for (const tag of ['img', 'script', 'b', 'i', 'h1 h1', 'a[href^="https://evil"]']) expect(container.querySelector(tag), tag).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });

  it('sends a reply as typed and shows it as text in the thread', async () => {
    const user = userEvent.setup();
    const sent = server();
    renderTicket();
    const box = await screen.findByRole('textbox', { name: 'Your reply' });
    await user.type(box, '<u>still</u> nothing');
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(sent).toEqual([{ message: '<u>still</u> nothing' }]));
    expect(await screen.findByText('<u>still</u> nothing')).toBeTruthy();
    expect(document.querySelector('u')).toBeNull();
  });
});
