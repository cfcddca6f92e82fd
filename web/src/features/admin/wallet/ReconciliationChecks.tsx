// The ledger's own checks on /admin/reconciliation (balances, running balances, payments credited once,
// debts, reversal moves, commissions): each one that found something, summarised with its first cases.

import type { ReactNode } from 'react';
import { Notice } from '@/components/Notice';
import { ManageUserLink } from '@/features/admin/users/ManageUserLink';
import { formatAmount } from '@/lib/format';
import type { ReconciliationReport } from './api/get-reconciliation';

/** How many cases of one check are listed; the rest are counted. */
const SHOWN = 10;
const USER_LINK = 'font-medium underline underline-offset-2';

type LedgerCheckName = 'balanceMismatches' | 'brokenRunningBalances' | 'paymentMismatches' | 'debtMismatches' | 'reversalMismatches' | 'commissionMismatches';

const CHECK_NAMES: ReadonlyArray<LedgerCheckName> = [
  'balanceMismatches',
  'brokenRunningBalances',
  'paymentMismatches',
  'debtMismatches',
  'reversalMismatches',
  'commissionMismatches',
];

/** How many cases the ledger's checks found, together. */
export const ledgerFindingCount = (report: ReconciliationReport) => CHECK_NAMES.reduce((sum, name) => sum + report[name].length, 0);

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
const amountOrNone = (amount: string | null) => (amount === null ? 'none' : formatAmount(amount));

function UserLink({ userId }: { userId: number }) {
  return (
    <ManageUserLink userId={userId} className={USER_LINK}>
      User #{userId}
    </ManageUserLink>
  );
}

/** One check that found something: what it means, and its first cases. */
function Check({ title, what, items }: { title: string; what: string; items: ReadonlyArray<{ key: string; line: ReactNode }> }) {
  return (
    <Notice
      tone="rose"
      label={title}
      details={
        <ul className="mt-2 space-y-1 pl-6 break-words">
          {items.slice(0, SHOWN).map((item) => (
            <li key={item.key}>{item.line}</li>
          ))}
          {items.length > SHOWN ? <li>and {items.length - SHOWN} more</li> : null}
        </ul>
      }
    >
      <strong>{title}</strong>: {what}
    </Notice>
  );
}

export function LedgerChecks({ report }: { report: ReconciliationReport }) {
  if (ledgerFindingCount(report) === 0) return null;
  const { balanceMismatches, brokenRunningBalances, paymentMismatches, debtMismatches, reversalMismatches, commissionMismatches } = report;
  return (
    <section aria-label="Ledger checks" className="space-y-3">
      <h2 className="font-semibold text-slate-900">Ledger checks</h2>
      {balanceMismatches.length > 0 ? (
        <Check
          title={plural(balanceMismatches.length, 'wallet off its ledger', 'wallets off their ledger')}
          what="the balance is not the sum of the wallet's ledger rows."
          items={balanceMismatches.map((m) => ({
            key: String(m.userId),
            line: (
              <>
                <UserLink userId={m.userId} />: balance {formatAmount(m.balance)}, ledger {formatAmount(m.ledger)}
              </>
            ),
          }))}
        />
      ) : null}
      {brokenRunningBalances.length > 0 ? (
        <Check
          title={plural(brokenRunningBalances.length, 'broken running balance', 'broken running balances')}
          what="a ledger row's balance after does not follow from the row before it."
          items={brokenRunningBalances.map((m) => ({
            key: String(m.transactionId),
            line: (
              <>
                <UserLink userId={m.userId} />: ledger row #{m.transactionId}
              </>
            ),
          }))}
        />
      ) : null}
      {paymentMismatches.length > 0 ? (
        <Check
          title={plural(paymentMismatches.length, 'payment not credited once', 'payments not credited once')}
          what="a successful payment must be credited exactly once, and a payment credit needs a successful payment."
          items={paymentMismatches.map((m) => ({
            key: m.reference,
            line: (
              <>
                <span className="font-mono text-xs">{m.reference}</span>: {m.status ?? 'no payment'}, credited {plural(m.credits, 'time', 'times')}
              </>
            ),
          }))}
        />
      ) : null}
      {debtMismatches.length > 0 ? (
        <Check
          title={plural(debtMismatches.length, 'debt off its reversals', 'debts off their reversals')}
          what="the wallet's debt is not what its refunds and chargebacks left, less what deposits settled."
          items={debtMismatches.map((m) => ({
            key: String(m.userId),
            line: (
              <>
                <UserLink userId={m.userId} />: debt {formatAmount(m.debt)}, expected {formatAmount(m.expected)}
              </>
            ),
          }))}
        />
      ) : null}
      {reversalMismatches.length > 0 ? (
        <Check
          title={plural(reversalMismatches.length, 'reversal move off the ledger', 'reversal moves off the ledger')}
          what="a refund's or dispute's move does not have exactly its ledger row."
          items={reversalMismatches.map((m) => ({
            key: `${m.reversalId}|${m.party}|${m.step}`,
            line: (
              <>
                Reversal #{m.reversalId} ({m.party === 'referrer' ? 'referrer' : 'payer'}, {m.step.replace(/_/g, ' ')}): recorded {formatAmount(m.recorded)},
                ledger {formatAmount(m.ledger)}
              </>
            ),
          }))}
        />
      ) : null}
      {commissionMismatches.length > 0 ? (
        <Check
          title={plural(commissionMismatches.length, 'commission off the ledger', 'commissions off the ledger')}
          what="a released commission must be credited exactly as recorded, a held one not at all."
          items={commissionMismatches.map((m) => ({
            key: m.reference,
            line: (
              <>
                <span className="font-mono text-xs">{m.reference}</span>: recorded {amountOrNone(m.recorded)}, credited {amountOrNone(m.credited)}
              </>
            ),
          }))}
        />
      ) : null}
    </section>
  );
}
