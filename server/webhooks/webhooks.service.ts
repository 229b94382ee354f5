import { lookup } from 'node:dns/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AuthUser } from '../../src/contract/auth';
import { M } from '../../src/contract/messages';
import {
  WEBHOOK_SECRET_GRACE_MS,
  WEBHOOK_TEST_EVENT,
  WM,
  type Webhook,
  type WebhookCreate,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookPatch,
  type WebhookSecretRotated,
} from '../../src/contract/webhooks';
import { ownerScope, type Acting } from '../auth/guards';
import { actorOf, record } from '../audit/audit';
import type { Db } from '../db/index';
import type { Sealer } from '../crypto/seal';
import { badRequest, notFound } from '../http/errors';
import { isPublicAddress } from '../platforms/proxy-guard';
import type { WebhookMessage } from './webhooks.jobs';
import type { DeliveryRow, WebhookRow, WebhooksRepository } from './webhooks.repository';
import type { WebhookSender } from './webhook-sender';

const LOG_LIMIT = 200;
const iso = (ms: number) => new Date(ms).toISOString();

/** A new signing secret: `whsec_` and 32 random bytes, base64 (Standard Webhooks). */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A message body as Standard Webhooks suggests: the event's type, when it was sent out, and its data. */
export const messageBody = (type: string, data: unknown, at: number) =>
  JSON.stringify({ type, timestamp: iso(at), data });

/**
 * Webhooks: URLs a user registers for events of their own rows (an admin's hear everyone's). The secret
 * (`whsec_` and 32 random bytes, base64) is shown once and kept sealed. "Rotate secret" makes a new one (shown
 * once too); the old one keeps signing, after the new one, for WEBHOOK_SECRET_GRACE_MS. Every message is a job of the queue
 * (server/webhooks/webhooks.jobs.ts), retried with backoff for about a day; each attempt is written to the
 * delivery log. The SSRF guard of proxies applies: a URL whose address (literal, or any the name resolves to)
 * is not public is refused when saved and again when sent, unless ALLOW_PRIVATE_WEBHOOKS.
 */
export class WebhooksService {
  constructor(
    private repo: WebhooksRepository,
    private deps: { db: Db; sealer: Sealer; sender: WebhookSender; allowPrivate: boolean; now?: () => number },
  ) {}

  private now() {
    return (this.deps.now ?? Date.now)();
  }

  async list(user: AuthUser): Promise<Webhook[]> {
    const now = this.now();
    return (await this.repo.list(ownerScope(user))).map((w) => shown(w, now));
  }

  async get(user: AuthUser, id: number): Promise<Webhook> {
    return shown(await this.row(user, id), this.now());
  }

  async create(user: Acting, body: WebhookCreate): Promise<WebhookCreated> {
    await this.checkAddress(body.url);
    const secret = newSecret();
    const id = await this.deps.db.transaction().execute(async (trx) => {
      const id = await this.repo.insert(
        {
          userId: user.id,
          url: body.url,
          events: body.events,
          secretSealed: this.deps.sealer.seal(secret),
          enabled: body.enabled ?? true,
          at: this.now(),
        },
        trx,
      );
      // Never the secret.
      const detail = { url: body.url, events: body.events };
      await record(trx, { ...actorOf(user), action: 'webhook.created', ...this.object(id), detail });
      return id;
    });
    return { webhook: await this.get(user, id), secret };
  }

  async update(user: Acting, id: number, patch: WebhookPatch): Promise<Webhook> {
    await this.row(user, id);
    if (patch.url !== undefined) await this.checkAddress(patch.url);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.repo.update(id, patch, this.now(), trx);
      await record(trx, { ...actorOf(user), action: 'webhook.updated', ...this.object(id), detail: { ...patch } });
    });
    return this.get(user, id);
  }

  /**
   * "Rotate secret": a new secret signs every delivery from now on (answered this once); the one in use until now
   * signs them too, after it, for WEBHOOK_SECRET_GRACE_MS. A rotation within the grace period replaces the older
   * secret by the one in use: only the secret in use before the last rotation stays valid.
   */
  async rotateSecret(user: Acting, id: number): Promise<WebhookSecretRotated> {
    const w = await this.row(user, id);
    const secret = newSecret();
    const at = this.now();
    const until = at + WEBHOOK_SECRET_GRACE_MS;
    await this.deps.db.transaction().execute(async (trx) => {
      await this.repo.rotateSecret(
        id,
        {
          secretSealed: this.deps.sealer.seal(secret),
          previousSecretSealed: w.secretSealed,
          previousSecretUntil: until,
        },
        at,
        trx,
      );
      // Never a secret: when the old one stops signing.
      const detail = { url: w.url, previousSecretValidUntil: iso(until) };
      await record(trx, { ...actorOf(user), action: 'webhook.secret_rotated', ...this.object(id), detail });
    });
    return { webhook: await this.get(user, id), secret, previousSecretValidUntil: iso(until) };
  }

  async remove(user: Acting, id: number): Promise<Webhook> {
    const w = await this.get(user, id);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.repo.delete(id, trx);
      await record(trx, { ...actorOf(user), action: 'webhook.deleted', ...this.object(id), detail: { url: w.url } });
    });
    return w;
  }

  private object(id: number) {
    return { objectType: 'webhook', objectId: id };
  }

  /** The webhook's delivery log, newest attempt first. */
  async deliveries(user: AuthUser, id: number): Promise<WebhookDelivery[]> {
    await this.row(user, id);
    return (await this.repo.deliveries(id, LOG_LIMIT)).map(shownDelivery);
  }

  /** "Send test": one `webhook.test` message, sent now (not retried); answers the attempt as logged. */
  async sendTest(user: AuthUser, id: number): Promise<WebhookDelivery> {
    const w = await this.row(user, id);
    const at = this.now();
    const message: WebhookMessage = {
      webhookId: w.id,
      messageId: `msg_${randomUUID()}`,
      event: WEBHOOK_TEST_EVENT,
      body: messageBody(WEBHOOK_TEST_EVENT, { webhookId: w.id, url: w.url }, at),
    };
    const logId = await this.attempt(w, message, 1, 1);
    const row = (await this.repo.deliveries(w.id, LOG_LIMIT)).find((d) => d.id === logId);
    return shownDelivery(row!);
  }

  /**
   * One attempt of a queued message (the `webhook.deliver` job): `delivered`, `failed` (retried while attempts
   * remain) or `refused` (the address is not public: never retried). A webhook deleted or disabled meanwhile
   * gets nothing.
   */
  async deliver(message: WebhookMessage, attempt: number, maxAttempts: number) {
    const w = await this.repo.get(null, message.webhookId);
    if (!w || !w.enabled) return 'gone' as const;
    const logId = await this.attempt(w, message, attempt, maxAttempts);
    const logged = (await this.repo.deliveries(w.id, 1)).find((d) => d.id === logId);
    if (logged?.ok) return 'delivered' as const;
    return logged?.error === 'address refused' ? ('refused' as const) : ('failed' as const);
  }

  private async attempt(w: WebhookRow, m: WebhookMessage, attempt: number, maxAttempts: number): Promise<number> {
    const r = await this.deps.sender.send({
      url: w.url,
      messageId: m.messageId,
      body: m.body,
      secrets: this.signingSecrets(w),
    });
    return this.repo.logAttempt({
      webhookId: w.id,
      messageId: m.messageId,
      event: m.event,
      attempt,
      ok: r.ok ? 1 : 0,
      willRetry: !r.ok && !r.refused && attempt < maxAttempts ? 1 : 0,
      responseStatus: r.status,
      responseBody: r.body,
      error: r.error,
      durationMs: r.durationMs,
      createdAt: this.now(),
    });
  }

  /** The secrets that sign a delivery now: the one in use, then the one a rotation replaced while its grace lasts. */
  private signingSecrets(w: WebhookRow): string[] {
    const secrets = [this.deps.sealer.open(w.secretSealed)];
    if (graceLasts(w, this.now())) secrets.push(this.deps.sealer.open(w.previousSecretSealed!));
    return secrets;
  }

  private async row(user: AuthUser, id: number): Promise<WebhookRow> {
    const w = await this.repo.get(ownerScope(user), id);
    if (!w) throw notFound();
    return w;
  }

  /**
   * The SSRF guard when a URL is saved: a literal that is not public, or a name any of whose addresses is not
   * public, is a 400 on `url`. A name that does not resolve now is taken (the guard checks again at each send).
   */
  private async checkAddress(url: string): Promise<void> {
    if (this.deps.allowPrivate) return;
    const refused = () => badRequest(M.validation, { url: WM.urlRefused });
    if (this.deps.sender.refusesLiteral(url)) throw refused();
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    const addresses = await lookup(host, { all: true }).catch(() => []);
    if (addresses.some((a) => !isPublicAddress(a.address))) throw refused();
  }
}

/** Whether the secret a rotation replaced still signs deliveries at `now`. */
const graceLasts = (w: WebhookRow, now: number) =>
  w.previousSecretSealed !== null && w.previousSecretUntil !== null && w.previousSecretUntil > now;

/** A webhook as answered: never a secret, only until when the replaced one still signs. */
function shown(w: WebhookRow, now: number): Webhook {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    enabled: w.enabled,
    user: { id: w.userId, login: w.login },
    previousSecretValidUntil: graceLasts(w, now) ? iso(w.previousSecretUntil!) : null,
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
  };
}

function shownDelivery(d: DeliveryRow): WebhookDelivery {
  return {
    id: d.id,
    messageId: d.messageId,
    event: d.event,
    attempt: d.attempt,
    ok: d.ok,
    willRetry: d.willRetry,
    responseStatus: d.responseStatus,
    responseBody: d.responseBody,
    error: d.error,
    durationMs: d.durationMs,
    createdAt: iso(Number(d.createdAt)),
  };
}
