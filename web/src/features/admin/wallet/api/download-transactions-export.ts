// GET admin/transactions/exports/:id/file: the written CSV, fetched with the administrator's token (a bare link would
// carry none); the browser unpacks the gzip it comes in.
import { client, readText } from '@/lib/api';

export const downloadTransactionsExport = (exportId: number) =>
  readText(client.admin.transactions.exports[':exportId'].file.$get({ param: { exportId: String(exportId) } }, { headers: { Accept: 'text/csv' } }));
