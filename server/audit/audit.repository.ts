import type { AuditEntry, AuditFilter } from '../../src/contract/audit';
import { PAGE_SIZE, type Page } from '../../src/contract/pagination';
import type { Db } from '../db/index';
import { matchesText } from '../http/list-query';
import type { AuditLogTable } from '../db/types';
import type { Selectable } from 'kysely';

/** Reads the audit log (the writer is audit.ts `record`): newest first, by the screen's filters. */
export class AuditRepository {
  constructor(private db: Db) {}

  private filtered(f: AuditFilter) {
    let q = this.db.selectFrom('auditLog');
    if (f.actor) q = q.where(matchesText(f.actor, ['auditLog.actorLogin']));
    if (f.action) q = q.where('action', '=', f.action);
    if (f.objectType) q = q.where('objectType', '=', f.objectType);
    if (f.objectId) q = q.where('objectId', '=', f.objectId);
    if (f.from) q = q.where('at', '>=', Date.parse(f.from));
    if (f.to) q = q.where('at', '<=', Date.parse(f.to));
    return q;
  }

  async page(f: AuditFilter, page: number): Promise<Page<AuditEntry>> {
    const [rows, count] = await Promise.all([
      this.filtered(f)
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute(),
      this.filtered(f)
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    const total = Number(count.total);
    return { data: rows.map(toEntry), page, totalPages: Math.ceil(total / PAGE_SIZE), total };
  }

  /** Every matching entry, newest first, read in batches (keyset on id), so an export of any size streams. */
  async *all(f: AuditFilter, batch = 1000): AsyncGenerator<AuditEntry> {
    let before: number | undefined;
    for (;;) {
      let q = this.filtered(f).selectAll();
      if (before !== undefined) q = q.where('id', '<', before);
      const rows = await q.orderBy('id', 'desc').limit(batch).execute();
      for (const r of rows) yield toEntry(r);
      if (rows.length < batch) return;
      before = rows[rows.length - 1]!.id;
    }
  }
}

const toEntry = (r: Selectable<AuditLogTable>): AuditEntry => ({
  id: r.id,
  at: new Date(Number(r.at)).toISOString(),
  actorId: r.actorId,
  actorLogin: r.actorLogin,
  action: r.action,
  objectType: r.objectType,
  objectId: r.objectId,
  ip: r.ip,
  detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
});
