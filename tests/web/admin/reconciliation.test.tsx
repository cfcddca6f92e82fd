// The Reconciliation screen runs the checks when it opens and on "Run again", and says what it found:
// a clean verdict, or the credit with nothing behind it by user and cause and each ledger check that failed.
// "Check everything" starts the full check on the server's queue and shows it under way until its report is in.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import ReconciliationPage from '@/features/admin/wallet/ReconciliationPage';
import { renderApp, userAreaAnswer } from '../app';
import { columnHeaders, jsonResponse, mockFetch, renderScreen, sessionUser } from '../helpers';

const ROOT = sessionUser({ id: 9, fullName: 'Root Admin', email: 'root@example.com', userType: 1 });

const CLEAN = {
  ok: true,
  checkedAt: '2026-03-05T10:00:00.000Z',
  scope: 'full',
  since: null,
  walletsChecked: 42,
  balanceMismatches: [],
  brokenRunningBalances: [],
  paymentMismatches: [],
  debtMismatches: [],
  reversalMismatches: [],
  commissionMismatches: [],
  unbacked: { total: '0.00', findings: [] },
  providerChecks: { checked: 20, disagreements: 0, errors: 0 },
};

const WITH_FINDINGS = {
  ...CLEAN,
  ok: false,
  checkedAt: '2026-03-06T09:30:00.000Z',
  balanceMismatches: [{ userId: 7, balance: '1500.00', ledger: '1000.00' }],
  commissionMismatches: [{ reference: 'dep-c1', recorded: '250.00', credited: null }],
  unbacked: {
    total: '5250.00',
    findings: [
      {
        userId: 5,
        email: 'ada@example.com',
        cause: 'payment_not_kept',
        reference: 'dep-7f3a',
        amount: '5000.00',
        detail: 'the wallet holds ₦5,000.00 of a ₦5,000.00 payment of which the provider’s events leave the shop ₦0.00',
      },
      {
        userId: 8,
        email: 'bola@example.com',
        cause: 'commission_not_backed',
        reference: 'dep-7f3a',
        amount: '250.00',
        detail: 'the referrer holds ₦250.00 of a ₦250.00 commission; the deposit still kept backs ₦0.00',
      },
      { userId: 6, email: null, cause: 'provider_disagrees', reference: 'dep-99', amount: '0.00', detail: 'the provider now says "failed"' },
      { userId: 5, email: 'ada@example.com', cause: 'reversal_state', reference: 'dep-12', amount: '10.00', detail: 'its refunds and disputes claim ₦10.00' },
    ],
  },
  providerChecks: { checked: 20, disagreements: 1, errors: 2 },
};

/** The checks run (GET admin/reconciliation?scope=…), not the reads of the full check's run. */
const runs = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter(([url]) => String(url).includes('admin/reconciliation?'));
/** A full check as it is queued; each test's run is this one moved on. */
const QUEUED_RUN = { state: 'queued', requestedAt: '2026-03-05T10:00:00.000Z', requestedBy: 9, startedAt: null, finishedAt: null, report: null, error: null };
const RUNNING_RUN = { ...QUEUED_RUN, state: 'running', startedAt: '2026-03-05T10:00:01.000Z' };
/** GET admin/reconciliation/full before any full check was asked for. */
const NO_FULL_RUN = () => jsonResponse(200, { message: 'Full check fetched successfully', data: null });

describe('Reconciliation', () => {
  it('is in the admin navigation, runs the checks when opened and says the books are clean', async () => {
    const fetch = mockFetch((url) => {
      if (url.includes('admin/reconciliation/full')) return NO_FULL_RUN();
      if (url.includes('admin/reconciliation')) return jsonResponse(200, { message: 'Reconciliation complete', data: CLEAN });
      if (url.includes('admin/tickets/unread')) return jsonResponse(200, { data: { unread: 0 } });
      return userAreaAnswer(url, ROOT) ?? jsonResponse(200, { data: [], count: 0 });
    });
    renderApp('/admin/reconciliation', ROOT);
    const verdict = await screen.findByRole('region', { name: 'Verdict' });
    expect(within(verdict).getByRole('heading', { name: 'Books are clean' })).toBeTruthy();
    expect(verdict.textContent).toMatch(/Checked .*2026/);
    const nav = screen.getByRole('complementary', { name: 'Admin navigation' });
    expect(within(nav).getByRole('link', { name: 'Reconciliation' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('Credit with nothing behind it').closest('.card')?.textContent).toMatch(/NGN.0\.00.*42 wallets checked/);
    expect(screen.getByText('Recent payments re-verified with their provider').closest('.card')?.textContent).toMatch(/20.*0 disagreements · 0 errors/);
    expect(screen.getByText('Nothing to look into')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Credit with nothing behind it' })).toBeNull();
    expect(runs(fetch)).toHaveLength(1);
  });

  it('lists each finding with its user, cause, payment and amount, summarises the ledger checks, and runs again on demand', async () => {
    const user = userEvent.setup();
    let answer: object = WITH_FINDINGS;
    const fetch = mockFetch((url) => {
      if (url.includes('admin/reconciliation/full')) return NO_FULL_RUN();
      return url.includes('admin/reconciliation') ? jsonResponse(200, { message: 'Reconciliation complete', data: answer }) : jsonResponse(200, {});
    });
    renderScreen(<ReconciliationPage />, '/admin/reconciliation', 'admin-token');
    const verdict = await screen.findByRole('region', { name: 'Verdict' });
    // Four unbacked findings, one balance off its ledger, one commission off the ledger.
    expect(within(verdict).getByRole('heading', { name: '6 findings' })).toBeTruthy();
    expect(screen.getByText('Credit with nothing behind it', { selector: 'p' }).closest('.card')?.textContent).toMatch(/NGN.5,250\.00/);
    expect(screen.getByText('Recent payments re-verified with their provider').closest('.card')?.textContent).toMatch(/1 disagreement · 2 errors/);

    const table = screen.getByRole('table', { name: 'Credit with nothing behind it' });
    expect(columnHeaders(table)).toEqual(['User', 'Cause', 'Payment', 'Amount', 'Detail']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1].textContent)).toEqual([
      'Credited more than the shop kept',
      'Commission without a kept deposit',
      'Provider says not paid',
      'Reversal records do not add up',
    ]);
    const first = rows[0];
    expect(within(first).getByRole('link', { name: 'ada@example.com' }).getAttribute('href')).toBe('/admin/manage-user');
    expect(first.textContent).toContain('dep-7f3a');
    expect(first.textContent).toMatch(/NGN.5,000\.00/);
    expect(first.textContent).toContain('The wallet holds');
    // A user whose email could not be read is still linked, by id.
    expect(within(rows[2]).getByRole('link', { name: 'User #6' })).toBeTruthy();
    expect(screen.getByText(/the amount is how far the records disagree/)).toBeTruthy();

    const checks = screen.getByRole('region', { name: 'Ledger checks' });
    const balances = within(checks).getByRole('alert', { name: '1 wallet off its ledger' });
    expect(balances.textContent).toMatch(/User #7: balance NGN.1,500\.00, ledger NGN.1,000\.00/);
    expect(within(checks).getByRole('alert', { name: '1 commission off the ledger' }).textContent).toMatch(/dep-c1: recorded NGN.250\.00, credited none/);
    expect(within(checks).queryByRole('alert', { name: /debt/ })).toBeNull();

    answer = CLEAN;
    await user.click(screen.getByRole('button', { name: 'Run again' }));
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Verdict' })).getByRole('heading', { name: 'Books are clean' })).toBeTruthy());
    expect(runs(fetch)).toHaveLength(2);
    expect(screen.queryByRole('region', { name: 'Ledger checks' })).toBeNull();
  });

  it('opens on what changed since the last clean hourly run, says so, and checks everything in the background', async () => {
    const user = userEvent.setup();
    const done = { ...RUNNING_RUN, state: 'done', finishedAt: '2026-03-05T10:00:07.000Z', report: CLEAN };
    let started = false;
    let readsOfTheRun = 0;
    const fetch = mockFetch((url, init) => {
      if (url.includes('admin/reconciliation/full') && init.method === 'POST') {
        started = true;
        return jsonResponse(202, { message: 'The full check is under way', data: QUEUED_RUN });
      }
      if (url.includes('admin/reconciliation/full')) {
        if (!started) return NO_FULL_RUN();
        readsOfTheRun += 1;
        return jsonResponse(200, { message: 'Full check fetched successfully', data: readsOfTheRun === 1 ? RUNNING_RUN : done });
      }
      if (!url.includes('admin/reconciliation')) return jsonResponse(200, {});
      const data = { ...CLEAN, scope: 'recent', since: '2026-03-04T09:00:00.000Z', walletsChecked: 3 };
      return jsonResponse(200, { message: 'Reconciliation complete', data });
    });
    renderScreen(<ReconciliationPage />, '/admin/reconciliation', 'admin-token');
    const verdict = await screen.findByRole('region', { name: 'Verdict' });
    expect(verdict.textContent).toMatch(/written since .*2026/);
    expect(String(runs(fetch)[0][0])).toContain('scope=recent');

    await user.click(screen.getByRole('button', { name: 'Check everything' }));
    // Under way on the server's queue: said so, with when it started, and read again until it is done.
    const underWay = await screen.findByRole('status', { name: 'Checking everything' });
    // The run is read again every 1.5 s while it is under way.
    await waitFor(() => expect(underWay.textContent).toMatch(/Started .*2026/), { timeout: 10_000 });
    expect(screen.getByRole('button', { name: /Checking everything/ }).hasAttribute('disabled')).toBe(true);
    await waitFor(() => expect(screen.getByRole('region', { name: 'Verdict' }).textContent).toContain('Every wallet, ledger row, payment'), {
      timeout: 10_000,
    });
    expect(fetch.mock.calls.filter(([url, init]) => String(url).includes('/full') && init?.method === 'POST')).toHaveLength(1);
    expect(readsOfTheRun).toBe(2);

    // Done: it can be run again, and the recent view is one tap away.
    expect(screen.getByRole('button', { name: 'Check everything again' }).hasAttribute('disabled')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Recent changes' }));
    expect((await screen.findByRole('region', { name: 'Verdict' })).textContent).toMatch(/written since .*2026/);
  });

  it('says why a full check failed, and starts it again', async () => {
    const user = userEvent.setup();
    const failed = { ...RUNNING_RUN, state: 'failed', finishedAt: '2026-03-05T10:00:02.000Z', error: 'The check stopped before it was done; start it again.' };
    let starts = 0;
    mockFetch((url, init) => {
      if (url.includes('admin/reconciliation/full') && init.method === 'POST') {
        starts += 1;
        return jsonResponse(202, { message: 'The full check is under way', data: QUEUED_RUN });
      }
      if (url.includes('admin/reconciliation/full')) return jsonResponse(200, { message: 'Full check fetched successfully', data: failed });
      if (!url.includes('admin/reconciliation')) return jsonResponse(200, {});
      return jsonResponse(200, { message: 'Reconciliation complete', data: { ...CLEAN, scope: 'recent', since: '2026-03-04T09:00:00.000Z' } });
    });
    renderScreen(<ReconciliationPage />, '/admin/reconciliation', 'admin-token');
    await user.click(await screen.findByRole('button', { name: 'Check everything' }));
    expect(await screen.findByText('The check stopped before it was done; start it again.', undefined, { timeout: 10_000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Try again/ }));
    await waitFor(() => expect(starts).toBe(2));
  });

  it('opens with the last full check one tap away, its report read without starting another', async () => {
    const user = userEvent.setup();
    const done = { ...RUNNING_RUN, state: 'done', finishedAt: '2026-03-05T10:00:07.000Z', report: WITH_FINDINGS };
    const fetch = mockFetch((url, init) => {
      if (url.includes('admin/reconciliation/full') && init.method === 'POST') return jsonResponse(500, { message: 'not asked for' });
      if (url.includes('admin/reconciliation/full')) return jsonResponse(200, { message: 'Full check fetched successfully', data: done });
      if (!url.includes('admin/reconciliation')) return jsonResponse(200, {});
      return jsonResponse(200, { message: 'Reconciliation complete', data: { ...CLEAN, scope: 'recent', since: '2026-03-04T09:00:00.000Z' } });
    });
    renderScreen(<ReconciliationPage />, '/admin/reconciliation', 'admin-token');
    expect(await screen.findByText(/Last full check .*2026.*: 6 findings\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'View it' }));
    expect(within(await screen.findByRole('region', { name: 'Verdict' })).getByRole('heading', { name: '6 findings' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Verdict' }).textContent).toContain('Every wallet, ledger row, payment');
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });

  it('says why the checks could not run, and runs them again', async () => {
    const user = userEvent.setup();
    let fail = true;
    mockFetch((url) => {
      if (!url.includes('admin/reconciliation')) return jsonResponse(200, {});
      return fail
        ? jsonResponse(503, { message: 'The database is unavailable', error: 'Service Unavailable', code: 'database_unavailable' })
        : jsonResponse(200, { message: 'Reconciliation complete', data: CLEAN });
    });
    renderScreen(<ReconciliationPage />, '/admin/reconciliation', 'admin-token');
    expect(await screen.findByText('The database is unavailable')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: /Try again/ }));
    expect(await screen.findByRole('heading', { name: 'Books are clean' })).toBeTruthy();
  });
});
