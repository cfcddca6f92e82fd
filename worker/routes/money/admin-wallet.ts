import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { koboToNumber } from '../../lib/decimal';
import { notFound } from '../../lib/errors';
import { pathId, validJson, validQuery } from '../../lib/validation';
import { paginationSchema } from '../../schemas/common';
import { adminDebitSchema, adminTransactionExportSchema, adminTransactionQuerySchema, reconciliationQuerySchema } from '../../schemas/wallet';
import {
  adminDebit,
  fullReconciliationRun,
  ledgerExport,
  ledgerExportFile,
  listAdminTransactions,
  listPendingPayments,
  reconcileOnDemand,
  startFullReconciliation,
  startLedgerExport,
  userWalletDetail,
} from '../../services/money';

import { ordersForUserDetail } from '../../services/orders';

export const adminWalletRoutes = new Hono<AppEnv>()
  // The spec's name for the user-detail call.
  .get('/getUserDeta/:userId', async (c) => {
    const userId = pathId(c, 'userId', 'userId');
    const [detail, orders] = await Promise.all([userWalletDetail(c.var.db, userId), ordersForUserDetail(c.var.db, userId)]);
    return c.json({ message: 'User details fetched successfully', ...detail, orders });
  })
  .post('/wallet/debit', validJson(adminDebitSchema), async (c) => {
    const input = c.req.valid('json');
    const applied = await adminDebit(c.var.db, c.var.principal.id, input);
    return c.json({ message: 'Debited successfully', data: { transactionId: applied.transactionId, balance: koboToNumber(applied.balanceAfterKobo) } });
  })
  .get('/transactions', validQuery(adminTransactionQuerySchema), async (c) =>
    c.json({ message: 'Transactions fetched successfully', ...(await listAdminTransactions(c.var.db, c.req.valid('query'))) }),
  )
  // "Export CSV": the file is written on the admin-jobs queue; the screen reads the export until it is done, then its file.
  .post('/transactions/exports', validJson(adminTransactionExportSchema), async (c) =>
    c.json({ message: 'The export is being prepared', data: await startLedgerExport(c.var.db, c.env, c.var.principal.id, c.req.valid('json')) }, 202),
  )
  .get('/transactions/exports/:exportId', async (c) => {
    const found = await ledgerExport(c.var.db, pathId(c, 'exportId', 'exportId'));
    if (!found) throw notFound('Export not found');
    return c.json({ message: 'Export fetched successfully', data: found });
  })
  .get('/transactions/exports/:exportId/file', async (c) => {
    const exportId = pathId(c, 'exportId', 'exportId');
    const gzipped = await ledgerExportFile(c.env.EXPORT_FILES, exportId);
    if (!gzipped) {
      // Only a missing file costs the export's read, to say why: forgotten with its export, failed, or still being written.
      const found = await ledgerExport(c.var.db, exportId);
      throw notFound(!found ? 'Export not found' : found.state === 'failed' ? (found.error ?? 'The export failed') : 'The file is not ready');
    }
    const headers = { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="transactions.csv"' };
    // Sent as it is kept, gzipped, to every client that takes gzip (browsers do); unpacked for one that does not.
    if (/\bgzip\b/.test(c.req.header('accept-encoding') ?? ''))
      return new Response(gzipped, { headers: { ...headers, 'content-encoding': 'gzip' }, encodeBody: 'manual' });
    return new Response(gzipped.pipeThrough(new DecompressionStream('gzip')), { headers });
  })
  // The dashboard's "Pending payments" as a list.
  .get('/payments/pending', validQuery(paginationSchema), async (c) =>
    c.json({ message: 'Pending payments fetched successfully', ...(await listPendingPayments(c.var.db, c.req.valid('query'))) }),
  )
  .get('/reconciliation', validQuery(reconciliationQuerySchema), async (c) =>
    c.json({ message: 'Reconciliation complete', data: await reconcileOnDemand(c.var.db, c.env, c.req.valid('query').scope) }),
  )
  // "Check everything" on the screen: the full run goes on the admin-jobs queue; the screen reads its state until it is done.
  .post('/reconciliation/full', async (c) =>
    c.json({ message: 'The full check is under way', data: await startFullReconciliation(c.var.db, c.env, c.var.principal.id) }, 202),
  )
  .get('/reconciliation/full', async (c) => c.json({ message: 'Full check fetched successfully', data: await fullReconciliationRun(c.var.db) }));
