// What administrators oversee: the audit log of who did what, and the warnings the automatic rules leave to a person;
// and the retention of data that ages (what grows without bound is forgotten in bounded batches; the audit log and the ledger never).
// Every other domain writes here and it reads none of them. The rest of the Worker calls what is exported here.
export {
  type AuditActor,
  type AuditTargetType,
  type FieldChange,
  fieldChanges,
  getAuditEntry,
  listAuditActors,
  listAuditEntries,
  recentAuditEntries,
  recordAudit,
} from './audit';
export { forgetAgedData, RETENTION, type RetentionCounts, runRetention } from './retention';
export { acknowledgeWarning, listWarnings, recordWarning, recordWarningOnce, recordWarnings, recordWarningsOnce, type WarningInput } from './warnings';
