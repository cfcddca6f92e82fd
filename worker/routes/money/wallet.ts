// The wallet calls of spec section 7, under user/. Each route names its own guard, because
// several sub-apps share the /user prefix and a prefix-wide guard would leak into the others.
import { Hono } from 'hono';
import { ORDER_STATUS } from '../../../vocabulary';
import type { AppEnv } from '../../context';
import { koboToNumber } from '../../lib/decimal';
import { validJson, validQuery } from '../../lib/validation';
import { deferSessionCheck, requireAdmin, requireUser } from '../../middleware/auth';
import { addFundSchema, adminCreditSchema, transactionQuerySchema, verifyPaymentSchema } from '../../schemas/wallet';
import {
  adminCredit,
  checkDeposit,
  claimedReference,
  dedicatedAccountOf,
  listTransactions,
  payerIntentQuery,
  requestDedicatedAccount,
  startDeposit,
  walletTotals,
} from '../../services/money';

import { committedKobo } from '../../services/orders';

export const walletRoutes = new Hono<AppEnv>()
  // walletDebt: what a reversed card payment left owing; the next deposits pay it first.
  .get('/getWalletBalance', requireUser, (c) =>
    c.json({ walletBalance: koboToNumber(c.var.principal.balanceKobo), walletDebt: koboToNumber(c.var.principal.debtKobo) }),
  )
  .get('/getMai', requireUser, async (c) => c.json({ smmBalance: koboToNumber(await committedKobo(c.var.db, c.var.principal.id)) }))
  .get('/transactions', requireUser, validQuery(transactionQuerySchema), async (c) =>
    c.json({ message: 'Transactions fetched successfully', ...(await listTransactions(c.var.db, { ...c.req.valid('query'), userId: c.var.principal.id })) }),
  )
  // Deposits, refunds, administrators' credits and spending apart, over the whole history or from/to.
  .get('/wallet-summary', requireUser, validQuery(transactionQuerySchema.pick({ from: true, to: true })), async (c) =>
    c.json({ message: 'Wallet summary fetched successfully', data: await walletTotals(c.var.db, c.var.principal.id, c.req.valid('query')) }),
  )
  .post('/add-fund', requireUser, validJson(addFundSchema), async (c) => {
    const { amount } = c.req.valid('json');
    const deposit = await startDeposit(c.var.db, c.env, c.var.principal, amount);
    return c.json({ message: 'Redirecting to the payment page', ...deposit }, 201);
  })
  // One round trip for a settled payment (the return page's retries): the session check and the intent read in one batch.
  .post('/verify-payment', deferSessionCheck, validJson(verifyPaymentSchema), async (c) => {
    const { session } = c.var;
    const input = c.req.valid('json');
    const {
      principal,
      read: [intent],
    } = await session.admitWith(payerIntentQuery(c.var.db, session.userId, claimedReference(input)));
    const { orderStatus, declineReason } = await checkDeposit(c.var.db, c.env, principal.id, input, intent);
    const message =
      { [ORDER_STATUS.success]: 'Wallet credited successfully', [ORDER_STATUS.pending]: 'The payment is not settled yet' }[orderStatus] ??
      'Payment not successful';
    // declineReason only when the provider gave one: the payer reads why before trying again.
    const data: { orderStatus: number; declineReason?: string } = declineReason ? { orderStatus, declineReason } : { orderStatus };
    return c.json({ message, data });
  })
  // The personal account number for bank transfers: null until asked for; asking again answers the same one.
  .get('/dedicated-account', requireUser, async (c) =>
    c.json({ message: 'Account fetched successfully', data: await dedicatedAccountOf(c.var.db, c.env, c.var.principal.id) }),
  )
  .post('/dedicated-account', requireUser, async (c) =>
    c.json({ message: 'Your account number is ready', data: await requestDedicatedAccount(c.var.db, c.env, c.var.principal.id) }),
  )
  .post('/admin-credit-user-wallet', requireAdmin, validJson(adminCreditSchema), async (c) => {
    const input = c.req.valid('json');
    const applied = await adminCredit(c.var.db, c.var.principal.id, input);
    return c.json({ message: 'Added successfully!', data: { transactionId: applied.transactionId, balance: koboToNumber(applied.balanceAfterKobo) } });
  });
