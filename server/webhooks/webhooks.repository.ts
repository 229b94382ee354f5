import type { Db } from '../db/index';
import type { WebhookDeliveriesTable } from '../db/types';
import type { Insertable } from 'kysely';

/** A webhook as stored (times epoch ms; `events` parsed), with its owner. */
export type WebhookRow = {
  id: number;
  userId: number;
  login: string;
  url: string;
  events: string[];
  secretSealed: string;
  /** The secret a rotation replaced and the end of its grace period (epoch ms), else null (042). */
  previousSecretSealed: string | null;
  previousSecretUntil: number | null;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
};

export type DeliveryRow = Omit<WebhookDeliveriesTable, 'id' | 'ok' | 'willRetry'> & {
  id: number;
  ok: boolean;
  willRetry: boolean;
};

const parseEvents = (text: string): string[] => {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((e): e is string => typeof e === 'string') : [];
  } catch {
    return [];
  }
};

/** The webhooks and webhook_deliveries tables (031). */
export class WebhooksRepository {
  constructor(private db: Db) {}

  private select(db: Db) {
    return db
      .selectFrom('webhooks')
      .innerJoin('users', 'users.id', 'webhooks.userId')
      .select([
        'webhooks.id',
        'webhooks.userId',
        'users.login',
        'webhooks.url',
        'webhooks.events',
        'webhooks.secretSealed',
        'webhooks.previousSecretSealed',
        'webhooks.previousSecretUntil',
        'webhooks.enabled',
        'webhooks.createdAt',
        'webhooks.updatedAt',
      ]);
  }

  private static row(r: {
    id: number;
    userId: number;
    login: string;
    url: string;
    events: string;
    secretSealed: string;
    previousSecretSealed: string | null;
    previousSecretUntil: number | null;
    enabled: number;
    createdAt: number;
    updatedAt: number;
  }): WebhookRow {
    return {
      ...r,
      events: parseEvents(r.events),
      previousSecretUntil: r.previousSecretUntil === null ? null : Number(r.previousSecretUntil),
      enabled: Boolean(r.enabled),
      createdAt: Number(r.createdAt),
      updatedAt: Number(r.updatedAt),
    };
  }

  /** Webhooks of `owner` (null: everyone's), newest first. */
  async list(owner: number | null): Promise<WebhookRow[]> {
    let q = this.select(this.db).orderBy('webhooks.id', 'desc');
    if (owner !== null) q = q.where('webhooks.userId', '=', owner);
    return (await q.execute()).map(WebhooksRepository.row);
  }

  async get(owner: number | null, id: number, db: Db = this.db): Promise<WebhookRow | undefined> {
    let q = this.select(db).where('webhooks.id', '=', id);
    if (owner !== null) q = q.where('webhooks.userId', '=', owner);
    const r = await q.executeTakeFirst();
    return r && WebhooksRepository.row(r);
  }

  /**
   * The enabled webhooks that hear `event` about `userId`'s rows: that user's own, and every admin's (an admin's
   * webhook hears every user's events).
   */
  async listeners(db: Db, event: string, userId: number | null): Promise<WebhookRow[]> {
    let q = this.select(db).where('webhooks.enabled', '=', 1);
    q = q.where((eb) =>
      userId === null
        ? eb('users.role', '=', 'admin')
        : eb.or([eb('webhooks.userId', '=', userId), eb('users.role', '=', 'admin')]),
    );
    return (await q.execute()).map(WebhooksRepository.row).filter((w) => w.events.includes(event));
  }

  async insert(
    w: { userId: number; url: string; events: string[]; secretSealed: string; enabled: boolean; at: number },
    db: Db = this.db,
  ): Promise<number> {
    const r = await db
      .insertInto('webhooks')
      .values({
        userId: w.userId,
        url: w.url,
        events: JSON.stringify(w.events),
        secretSealed: w.secretSealed,
        enabled: w.enabled ? 1 : 0,
        createdAt: w.at,
        updatedAt: w.at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  async update(
    id: number,
    patch: { url?: string; events?: string[]; enabled?: boolean },
    at: number,
    db: Db = this.db,
  ): Promise<void> {
    await db
      .updateTable('webhooks')
      .set({
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: JSON.stringify(patch.events) } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled ? 1 : 0 } : {}),
        updatedAt: at,
      })
      .where('id', '=', id)
      .execute();
  }

  /** A rotation: `secretSealed` signs from now on; `previousSecretSealed` too, until `previousSecretUntil`. */
  async rotateSecret(
    id: number,
    r: { secretSealed: string; previousSecretSealed: string; previousSecretUntil: number },
    at: number,
    db: Db = this.db,
  ): Promise<void> {
    await db
      .updateTable('webhooks')
      .set({ ...r, updatedAt: at })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number, db: Db = this.db): Promise<void> {
    await db.deleteFrom('webhooks').where('id', '=', id).execute();
  }

  /** Records one attempt in the delivery log. */
  async logAttempt(d: Insertable<WebhookDeliveriesTable>): Promise<number> {
    const r = await this.db.insertInto('webhookDeliveries').values(d).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** The webhook's delivery log, newest first. */
  async deliveries(webhookId: number, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.db
      .selectFrom('webhookDeliveries')
      .selectAll()
      .where('webhookId', '=', webhookId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      ...r,
      ok: Boolean(r.ok),
      willRetry: Boolean(r.willRetry),
      createdAt: Number(r.createdAt),
    }));
  }
}
