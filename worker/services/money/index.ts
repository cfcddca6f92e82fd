// Money: every kobo into and out of a wallet. The ledger (the one way a balance changes), card and bank-transfer deposits, refunds and
// disputes, referral commissions, administrators' entries, the reconciliation and the money alerts. The rest of the Worker calls what is exported here.
export { adminCredit, adminDebit } from './admin-entries';
export { consumeAdminJobs } from './admin-jobs';
export { dedicatedAccountOf, requestDedicatedAccount } from './bank-transfers';
export { applyLedgerEntry, assertPositiveAmount, INSUFFICIENT_BALANCE, ledgerEntrySteps, refusedDebit } from './ledger';
export { forgetOldLedgerExports, ledgerExport, ledgerExportFile, startLedgerExport } from './ledger-export-jobs';
export { moneyAlerts } from './money-alerts';
export { paymentRefusalAlert } from './payment-health';
export { checkPaymentKey, paymentSettingsView, updatePaymentSettings } from './payment-settings';
export {
  checkDeposit,
  claimedReference,
  type DepositCheck,
  handlePaymentWebhook,
  payerIntentQuery,
  reverifyPendingDeposits,
  startDeposit,
  verifyDeposit,
} from './payments';
export { listPendingPayments } from './pending-payments';
export { hourlyReconciliation, reconcile, reconcileOnDemand } from './reconciliation';
export { fullReconciliationRun, startFullReconciliation } from './reconciliation-full-run';
export { releaseReferralCommissions } from './referral-commissions';
export { getReferralSettings, listReferrals, referralSettingsView, referralSummary, updateReferralSettings, voidReferral } from './referrals';
export { consumePaymentEvents } from './transfer-retries';
export { listAdminTransactions, listTransactions, userWalletDetail, walletTotals } from './wallet';
