// What follows a deposit credited to a wallet, inside the transaction that credits it, so it
// happens exactly when the money arrives and never for a credit that rolled back: the
// referrer's commission and the depositor's notification. Card payments and bank transfers
// both come through applyVerification (verified-payments.ts), so both get here.
import type { DbOrTx } from '../../db';
import { notifyDepositCredited } from '../notifications';
import type { CreditedDeposit } from './credited-deposit';
import { earnCommission } from './referral-commissions';

export async function afterDepositCredited(tx: DbOrTx, deposit: CreditedDeposit): Promise<void> {
  await earnCommission(tx, deposit);
  await notifyDepositCredited(tx, deposit);
}
