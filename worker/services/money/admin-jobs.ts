// The admin-jobs queue's consumer: administrators' jobs too long for a request, each run once per message however
// often the queue delivers it (each job starts only what is still queued).
import { z } from 'zod';
import { openDatabase } from '../../db';
import type { Env } from '../../env';
import { log } from '../../lib/log';
import { ledgerExportMessage, runLedgerExport } from './ledger-export-jobs';
import { fullRunMessage, runFullReconciliation } from './reconciliation-full-run';

/** Read as outside data: a message the Worker does not understand is dropped and logged. */
const adminJobMessage = z.discriminatedUnion('kind', [fullRunMessage, ledgerExportMessage]);

export async function consumeAdminJobs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const { db, close } = openDatabase(env);
  try {
    for (const message of batch.messages) {
      const parsed = adminJobMessage.safeParse(message.body);
      if (!parsed.success) log.error('unreadable admin job dropped', { body: message.body });
      else if (parsed.data.kind === 'full-reconciliation') await runFullReconciliation(db, env, parsed.data.requestedAt);
      else await runLedgerExport(db, env.EXPORT_FILES, parsed.data.exportId);
      message.ack();
    }
  } finally {
    await close();
  }
}
