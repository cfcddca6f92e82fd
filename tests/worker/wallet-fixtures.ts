// A customer's money for the Worker tests: users funded as an administrator's credit, and their
// wallet and ledger read straight from the database.
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { wallets, walletTransactions } from '../../drizzle/schema';
import { applyLedgerEntry } from '../../worker/services/money/ledger';
import type { ReconciliationReport } from '../../worker/services/money/reconciliation';
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

/**
 * The books kept, as far as one test can say in a database other files share: no wallet, payment, debt, reversal
 * or commission out of step anywhere, and no credit without money behind it for the test's own users. (The
 * provider re-check reads the newest payments of every file, some of which another file's fake no longer knows.)
 */
export function expectBooksKept(report: ReconciliationReport, ownUserIds: number[]): void {
  const { balanceMismatches, brokenRunningBalances, paymentMismatches, debtMismatches, reversalMismatches, commissionMismatches } = report;
  expect({ balanceMismatches, brokenRunningBalances, paymentMismatches, debtMismatches, reversalMismatches, commissionMismatches }).toEqual({
    balanceMismatches: [],
    brokenRunningBalances: [],
    paymentMismatches: [],
    debtMismatches: [],
    reversalMismatches: [],
    commissionMismatches: [],
  });
  expect(report.unbacked.findings.filter((finding) => ownUserIds.includes(finding.userId))).toEqual([]);
}
