import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

/** The PostgreSQL channel every process LISTENs on: a transaction that records events NOTIFYs it as it commits. */
export const EVENTS_CHANNEL = 'kadr_events';

/** The name the LISTEN connection shows in pg_stat_activity. */
export const LISTEN_APPLICATION = 'kadr-events-listen';

const RETRY_MS = 2000;

/**
 * PostgreSQL only: the process's one LISTEN connection, which wakes the bus as soon as another process (or this
 * one) commits events. A lost connection is opened again after a pause; meanwhile the bus's poll is the backstop.
 */
export class EventListen {
  private client?: pg.Client;
  /** Connections being opened (each settles without throwing); close() waits for them. */
  private opening = new Map<pg.Client, Promise<void>>();
  private retry?: NodeJS.Timeout;
  private on = false;

  constructor(private opts: { url: string; wake: () => void; log?: FastifyBaseLogger }) {}

  start() {
    if (this.on) return;
    this.on = true;
    this.connect();
  }

  /**
   * Ends the connection. One still being opened is not ended here: pg ends a connecting client without ever
   * settling its connect() or by failing the LISTEN after it ("Client was closed"); connect() ends it once open.
   */
  async close() {
    this.on = false;
    clearTimeout(this.retry);
    this.retry = undefined;
    const c = this.client;
    this.client = undefined;
    if (c && !this.opening.has(c)) await c.end().catch(() => undefined);
    await Promise.all(this.opening.values());
  }

  /** Opens the LISTEN connection; when the bus closed meanwhile, ends it quietly instead. */
  private connect() {
    const client = new pg.Client({ connectionString: this.opts.url, application_name: LISTEN_APPLICATION });
    this.client = client;
    const current = () => this.client === client;
    client.on('notification', () => this.opts.wake());
    client.on('error', (err) => {
      if (!current()) return;
      this.opts.log?.warn({ err: err.message }, 'events: LISTEN connection lost');
      this.client = undefined;
      void client.end().catch(() => undefined);
      this.again();
    });
    const opening: Promise<void> = (async () => {
      try {
        await client.connect();
        if (current()) await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      } catch (err) {
        if (current()) {
          this.opts.log?.warn({ err: (err as Error).message }, 'events: LISTEN connection failed');
          this.client = undefined;
          this.again();
        }
        await client.end().catch(() => undefined);
        return;
      }
      if (!current()) await client.end().catch(() => undefined);
      else this.opts.wake(); // anything committed while connecting
    })().finally(() => this.opening.delete(client));
    this.opening.set(client, opening);
  }

  private again() {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.on && !this.client) this.connect();
    }, RETRY_MS);
    this.retry.unref();
  }
}
