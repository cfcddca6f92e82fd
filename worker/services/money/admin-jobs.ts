// The admin-jobs queue's consumer: administrators' jobs too long for a request, each run once per message however
// often the queue delivers it (each job starts only what is still queued).
import { z } from 'zod';
import { queueConsumer } from '../../queue-consumer';
import { ledgerExportMessage, runLedgerExport } from './ledger-export-jobs';
import { fullRunMessage, runFullReconciliation } from './reconciliation-full-run';

/** A job that could not run (the database not answering) waits this long for its next try. */
const RETRY_AFTER_ERROR_SECONDS = 60;

export const consumeAdminJobs = queueConsumer({
  what: 'admin job',
  message: z.discriminatedUnion('kind', [fullRunMessage, ledgerExportMessage]),
  run: async (db, env, job) => {
    if (job.kind === 'full-reconciliation') await runFullReconciliation(db, env, job.requestedAt);
    else await runLedgerExport(db, env.EXPORT_FILES, job.exportId);
    return 'done';
  },
  retryAfterError: () => RETRY_AFTER_ERROR_SECONDS,
});
