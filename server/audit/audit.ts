import type { Db } from '../db/index';

/**
 * One entry of the audit log (table audit_log, migration 029). `actorId`/`actorLogin` are kept as they were
 * (no foreign key: deleting the user keeps their history); null for an anonymous actor (a failed sign-in of an
 * unknown login keeps the login typed as `actorLogin`). `detail` never holds a secret's value: field names only.
 */
export type AuditRecord = {
  actorId: number | null;
  actorLogin: string | null;
  /** One of src/contract/audit.ts AUDIT_ACTIONS (add a new one there). */
  action: string;
  objectType?: string | null;
  objectId?: string | number | null;
  ip?: string | null;
  detail?: Record<string, unknown> | null;
};

/**
 * Records an audit entry through `db`: pass the transaction (Kysely `trx`) that makes the change, so the entry
 * exists if and only if the change commits. The only writer of audit_log; there is no update or delete path
 * (the database refuses both: triggers of migration 029).
 */
export async function record(db: Db, entry: AuditRecord): Promise<void> {
  await db
    .insertInto('auditLog')
    .values({
      at: Date.now(),
      actorId: entry.actorId,
      actorLogin: entry.actorLogin?.slice(0, 100) ?? null,
      action: entry.action,
      objectType: entry.objectType ?? null,
      objectId: entry.objectId == null ? null : String(entry.objectId).slice(0, 100),
      ip: entry.ip?.slice(0, 64) ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
    })
    .execute();
}

/** Who acts: a signed-in user, with the address of their request when the caller has it. */
export type AuditActor = { id: number; login: string; ip?: string };

/** The actor fields of an entry for `user` (`ip` overrides the user's own). */
export const actorOf = (user: AuditActor | null, ip?: string) => ({
  actorId: user?.id ?? null,
  actorLogin: user?.login ?? null,
  ip: ip ?? user?.ip ?? null,
});
