// The login answer says whether it is the account's first sign-in: the pages greet a newcomer
// ("Welcome") and not with "Welcome back".
import { describe, expect, it } from 'vitest';
import { call, unique } from '../../support/api';

describe('the login answer', () => {
  it('says firstSignIn for the first sign-in only', async () => {
    const email = `${unique()}@example.com`;
    const password = 'correct-horse-1';
    expect((await call('auth/register', { body: { fullName: 'New Comer', email, password, userType: 2 } })).status).toBe(201);
    const first = await call('auth/login', { body: { email, password } });
    expect(first.status).toBe(200);
    expect(first.body.firstSignIn).toBe(true);
    const second = await call('auth/login', { body: { email, password } });
    expect(second.body.firstSignIn).toBe(false);
  });
});
