// Site Settings' Reseller API card against a stubbed API: it shows the saved limits and the GET
// refusal, sends the whole settings object on save, and refuses an out-of-range limit before sending.

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { ResellerApiSettingsCard } from '@/features/admin/settings/ResellerApiSettingsCard';
import { TOKEN_KEY } from '@/lib/session';
import { describedText, jsonResponse, mockFetch, retype, WithQuery } from '../helpers';

const SAVED = { refuseWritesOverGet: false, perMinute: { add: 600, status: 1200, services: 60, balance: 600 } };

function renderCard(getAnswer: () => Response = () => jsonResponse(200, { message: 'Reseller API settings', data: SAVED })) {
  const fetch = mockFetch((_url, init) => {
    if (init.method === 'PUT') {
      const data = JSON.parse(String(init.body));
      return jsonResponse(200, { message: 'Reseller API settings saved', data });
    }
    return getAnswer();
  });
  window.localStorage.setItem(TOKEN_KEY, 'admin-token');
  render(
    <WithQuery>
      <ResellerApiSettingsCard />
    </WithQuery>,
  );
  return fetch;
}

const puts = (fetch: ReturnType<typeof renderCard>) => fetch.mock.calls.filter(([, init]) => init?.method === 'PUT');
const fieldValue = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

describe('the Reseller API settings', () => {
  it('show the saved values and save the whole object with the changes', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(toast, 'success');
    const fetch = renderCard();
    expect(await screen.findByLabelText('Orders, refills and cancels per minute')).toBeTruthy();
    expect(fieldValue('Orders, refills and cancels per minute')).toBe('600');
    expect(fieldValue('Status checks per minute')).toBe('1200');
    expect(fieldValue('Service lists per minute')).toBe('60');
    expect(fieldValue('Balance checks per minute')).toBe('600');
    const refuse = screen.getByLabelText('Refuse add, refill and cancel sent over GET') as HTMLInputElement;
    expect(refuse.checked).toBe(false);
    expect(describedText(refuse)).toMatch(/^Off by default: many bots build GET URLs/);

    await retype(user, screen.getByLabelText('Status checks per minute'), '3000');
    await user.click(refuse);
    await user.click(screen.getByRole('button', { name: /save/i }));

    await waitFor(() => expect(puts(fetch)).toHaveLength(1));
    expect(String(puts(fetch)[0][0])).toMatch(/\/admin\/settings\/reseller-api$/);
    expect(JSON.parse(String(puts(fetch)[0][1]?.body))).toEqual({
      refuseWritesOverGet: true,
      perMinute: { add: 600, status: 3000, services: 60, balance: 600 },
    });
    await waitFor(() => expect(success).toHaveBeenCalledWith('Reseller API settings saved'));
    expect(fieldValue('Status checks per minute')).toBe('3000');
    expect((screen.getByLabelText('Refuse add, refill and cancel sent over GET') as HTMLInputElement).checked).toBe(true);
  });

  it('refuse a limit out of range under its field and send nothing', async () => {
    const user = userEvent.setup();
    const error = vi.spyOn(toast, 'error');
    const fetch = renderCard();
    const balance = await screen.findByLabelText('Balance checks per minute');
    await retype(user, balance, '0');
    await user.click(screen.getByRole('button', { name: /save/i }));

    await waitFor(() => expect(describedText(balance)).toMatch(/at least 1 call per minute/i));
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/^Balance checks per minute: at least 1 call per minute/));
    expect(puts(fetch)).toHaveLength(0);
  });

  it('say when the settings could not be read, with no form to save', async () => {
    renderCard(() => jsonResponse(500, { message: 'Internal Server Error' }));
    expect(await screen.findByText(/Could not load these settings/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /save/i })).toBeNull();
  });
});
