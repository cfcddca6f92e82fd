// Referrals: filled in by the referrals work (issue 14.3).
import type { DbOrTx } from '../db';
import type { CreditedDeposit } from './deposit-credited';

export async function payReferralCommission(_tx: DbOrTx, _deposit: CreditedDeposit): Promise<void> {}
