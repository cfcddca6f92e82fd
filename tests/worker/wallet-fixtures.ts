// A customer's money for the Worker tests: users funded as an administrator's credit, and their
// wallet and ledger read straight from the database.
import { eq } from 'drizzle-orm';
import { wallets, walletTransactions } from '../../drizzle/schema';
import { applyLedgerEntry } from '../../worker/services/ledger';
import { registerAndLogin, type TestAccount, unique, withDb } from '../support/api';

export async function fund(userId: number, kobo: bigint): Promise<void> {
  await withDb((db) =>
    applyLedgerEntry(db, {
      userId,
      direction: 'credit',
      amountKobo: kobo,
      source: 'admin_credit',
      sourceRef: unique('test-fund'),
      description: 'test funding',
    }),
  );
}

export async function fundedUser(kobo: bigint): Promise<TestAccount> {
  const user = await registerAndLogin();
  await fund(user.id, kobo);
  return user;
}

export async function balanceKobo(userId: number): Promise<bigint> {
  const [row] = await withDb((db) => db.select({ balanceKobo: wallets.balanceKobo }).from(wallets).where(eq(wallets.userId, userId)));
  return row.balanceKobo;
}

export async function ledgerFor(userId: number) {
  return withDb((db) => db.select().from(walletTransactions).where(eq(walletTransactions.userId, userId)));
}
