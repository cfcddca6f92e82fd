// What follows a deposit credited to a wallet, inside the transaction that credits it, so it
// happens exactly when the money arrives and never for a credit that rolled back: the
// referrer's commission and the depositor's notification. Card payments and bank transfers
// both come through applyVerification (payments.ts), so both get here.
import type { DbOrTx } from '../db';
import type { PaymentProviderName } from '../providers/payments/types';
import { notifyDepositCredited } from './notifications';
import { payReferralCommission } from './referrals';

export interface CreditedDeposit {
  intentId: number;
  userId: number;
  amountKobo: bigint;
  /** The intent's reference: ours for a card payment, the provider's for a bank transfer. */
  reference: string;
  channel: 'card' | 'bank_transfer';
  provider: PaymentProviderName;
}

export async function afterDepositCredited(tx: DbOrTx, deposit: CreditedDeposit): Promise<void> {
  await payReferralCommission(tx, deposit);
  await notifyDepositCredited(tx, deposit);
}
