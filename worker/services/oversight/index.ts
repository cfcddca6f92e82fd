// What administrators oversee: the audit log of who did what, and the warnings the automatic rules leave to a person.
// Every other domain writes here and it reads none of them. The rest of the Worker calls what is exported here.
export { type AuditTargetType, getAuditEntry, listAuditEntries, recentAuditEntries, recordAudit } from './audit';
export { acknowledgeWarning, listWarnings, recordWarning, recordWarningOnce, type WarningInput } from './warnings';
