// Notifications: filled in by the notifications work (issue 14.4).
import type { DbOrTx } from '../db';
import type { CreditedDeposit } from './deposit-credited';

export async function notifyDepositCredited(_tx: DbOrTx, _deposit: CreditedDeposit): Promise<void> {}
