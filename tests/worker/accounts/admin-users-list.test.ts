// The administrators' accounts list picks each page in its sort order, filters included, whichever index or table
// the page is picked from (by balance: the wallets). Each test lists only accounts it made, by a name no one else has.
import { describe, expect, it } from 'vitest';
import { call, createAdmin, registerAndLogin, setUserStatus, unique } from '../../support/api';

async function accountsCredited(name: string, amounts: number[]) {
  const admin = await createAdmin();
  const accounts = [];
  for (const amount of amounts) {
    const account = await registerAndLogin({ fullName: name });
    if (amount > 0) {
      const credited = await call('user/admin-credit-user-wallet', {
        token: admin.accessToken,
        body: { amount, reference: unique('sort-credit'), userId: account.id },
      });
      expect(credited.status, JSON.stringify(credited.body)).toBe(200);
    }
    accounts.push({ id: account.id, amount });
  }
  return { admin, accounts };
}

async function listed(token: string, query: string): Promise<Array<{ id: number; balance: string }>> {
  const answer = await call(`admin/users?${query}`, { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.map((row: { id: number; wallet: { balance: string } }) => ({ id: row.id, balance: row.wallet.balance }));
}

describe('the accounts list, sorted', () => {
  it('by balance: highest first, equal balances by account number, an empty wallet last, page after page', async () => {
    const name = unique('Balance Sort ');
    const { admin, accounts } = await accountsCredited(name, [300, 0, 1250.5, 300, 75]);
    const expected = [...accounts].sort((a, b) => b.amount - a.amount || a.id - b.id).map((account) => account.id);
    const search = `search=${encodeURIComponent(name)}&sort=balance`;

    const whole = await listed(admin.accessToken, search);
    expect(whole.map((row) => row.id)).toEqual(expected);
    expect(whole.map((row) => row.balance)).toEqual(['1250.50', '300.00', '300.00', '75.00', '0.00']);
    const pages = [1, 2, 3].map((page) => listed(admin.accessToken, `${search}&limit=2&page=${page}`));
    expect((await Promise.all(pages)).map((page) => page.map((row) => row.id))).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)]);
  });

  it('by balance within a status: only the accounts in it, still by balance', async () => {
    const name = unique('Suspended Sort ');
    const { admin, accounts } = await accountsCredited(name, [40, 900, 10]);
    await setUserStatus(accounts[0].id, 'suspended');
    await setUserStatus(accounts[2].id, 'suspended');
    const suspended = await listed(admin.accessToken, `search=${encodeURIComponent(name)}&status=suspended&sort=balance`);
    expect(suspended).toEqual([
      { id: accounts[0].id, balance: '40.00' },
      { id: accounts[2].id, balance: '10.00' },
    ]);
  });

  it('newest, oldest and by name: the page in that order', async () => {
    const name = unique('Order Sort ');
    const admin = await createAdmin();
    const made = [];
    for (const first of ['Chidi', 'Ada', 'Bola']) made.push((await registerAndLogin({ fullName: `${name}${first}` })).id);
    const search = `search=${encodeURIComponent(name)}`;
    expect((await listed(admin.accessToken, `${search}&sort=newest`)).map((row) => row.id)).toEqual([...made].reverse());
    expect((await listed(admin.accessToken, `${search}&sort=oldest&limit=2&page=2`)).map((row) => row.id)).toEqual([made[2]]);
    expect((await listed(admin.accessToken, `${search}&sort=name`)).map((row) => row.id)).toEqual([made[1], made[2], made[0]]);
  });
});
