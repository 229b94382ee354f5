import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describeEachDb, type TestCtx } from '../helpers/app';
import { postEvent, recordEvents, renderEvent } from '../helpers/events';
import { webhookDeliverJob, WEBHOOK_MAX_ATTEMPTS } from '../../server/webhooks/webhooks.jobs';
import { WEBHOOK_SECRET_GRACE_MS } from '../../src/contract/webhooks';

type Received = { headers: IncomingHttpHeaders; body: string; path: string };

/** A local receiver: records every request; answers what `answer` says (500 while `failing` > 0). */
class Listener {
  received: Received[] = [];
  failing = 0;
  private server!: Server;
  url = '';

  async start() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body, path: req.url ?? '' });
        if (this.failing > 0) {
          this.failing--;
          res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver is down');
        } else res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Delivers what the bus holds, then runs the queued deliveries (retries at once when `now`). */
async function deliver(ctx: TestCtx, opts: { retryAtOnce?: boolean } = {}) {
  await ctx.root.events.drain();
  const runner = ctx.root.createJobRunner({
    catalogue: [webhookDeliverJob],
    ...(opts.retryAtOnce ? { backoff: () => 0 } : {}),
  });
  await runner.drain();
}

/** Checks a Standard Webhooks signature by hand: v1, base64 HMAC-SHA256 of id.timestamp.body with the secret. */
function signatureOk(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`;
  const expected = createHmac('sha256', key).update(signed).digest('base64');
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((s) => s === `v1,${expected}`);
}

/** The `webhook-signature` header's signatures, in their order (space-separated, as Standard Webhooks has it). */
const signaturesOf = (r: Received) => String(r.headers['webhook-signature']).split(' ');

/** The signature `secret` gives this delivery (`v1,` and the base64 HMAC-SHA256 of id.timestamp.body). */
function signatureBy(secret: string, r: Received): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

/** The reference receiver's check (standardwebhooks): throws unless some signature verifies with `secret`. */
const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>);

describeEachDb(
  'webhooks',
  (ctx) => {
    let listener: Listener;
    let anna: { authorization: string };
    let ivan: { authorization: string };
    let boss: { authorization: string };
    let annaId: number;

    beforeAll(async () => {
      listener = await new Listener().start();
      await ctx.createUser('boss', 'boss-pass', 'admin');
      annaId = await ctx.createUser('anna', 'anna-pass');
      await ctx.createUser('ivan', 'ivan-pass');
      boss = (await ctx.login('boss', 'boss-pass')).headers;
      anna = (await ctx.login('anna', 'anna-pass')).headers;
      ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
    });
    afterAll(() => listener.stop());
    beforeEach(() => {
      listener.received = [];
      listener.failing = 0;
    });

    const register = async (who: { authorization: string }, path: string, events: string[]) => {
      const r = await ctx.call({
        method: 'POST',
        url: '/api/webhooks',
        token: who,
        payload: { url: `${listener.url}${path}`, events },
      });
      expect(r.status).toBe(201);
      return r.body as { webhook: { id: number }; secret: string };
    };
    const log = async (who: { authorization: string }, id: number) =>
      (await ctx.call({ method: 'GET', url: `/api/webhooks/${id}/deliveries`, token: who })).body;

    it('checks its input: 400 naming the field', async () => {
      let r = await ctx.call({ method: 'POST', url: '/api/webhooks', token: anna, payload: {} });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.errors).sort()).toEqual(['events', 'url']);
      r = await ctx.call({
        method: 'POST',
        url: '/api/webhooks',
        token: anna,
        payload: { url: 'ftp://example.com/x', events: ['nope'] },
      });
      expect(r.status).toBe(400);
      expect(r.body.errors.url).toBe('Потрібна адреса http:// або https:// без логіна й пароля');
      expect(Object.keys(r.body.errors)).toContain('events.0');
    });

    it('"send test" delivers a signed message the receiver can check, and logs it', async () => {
      const { webhook, secret } = await register(anna, '/test', ['render.failed']);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      const r = await ctx.call({ method: 'POST', url: `/api/webhooks/${webhook.id}/test`, token: anna });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ ok: true, responseStatus: 200, responseBody: 'thanks', event: 'webhook.test' });
      expect(listener.received).toHaveLength(1);
      const got = listener.received[0]!;
      expect(got.headers['webhook-id']).toBe(r.body.messageId);
      expect(signatureOk(secret, got)).toBe(true);
      expect(signatureOk(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, got)).toBe(false);
      // The reference implementation agrees (and checks the timestamp is recent).
      const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
      expect(verified).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id } });
      expect((await log(anna, webhook.id))[0]).toMatchObject({ ok: true, attempt: 1, willRetry: false });
    });

    it('an event of the owner is delivered through the queue, signed; the webhooks that do not hear it get nothing', async () => {
      const mine = await register(anna, '/anna', ['render.finished']);
      const other = await register(ivan, '/ivan', ['render.finished']);
      const all = await register(boss, '/boss', ['render.finished']);
      await recordEvents(ctx.root, renderEvent(annaId, { id: 42 }, 'render.finished'));
      await deliver(ctx);
      const paths = listener.received.map((r) => r.path).sort();
      expect(paths).toEqual(['/anna', '/boss']);
      const got = listener.received.find((r) => r.path === '/anna')!;
      expect(signatureOk(mine.secret, got)).toBe(true);
      expect(JSON.parse(got.body)).toMatchObject({ type: 'render.finished', data: { id: 42 } });
      expect(
        signatureOk(
          all.secret,
          listener.received.find((r) => r.path === '/boss')!,
        ),
      ).toBe(true);
      expect(await log(ivan, other.webhook.id)).toEqual([]);
    });

    it('a failing endpoint is retried with backoff (about a day of attempts), the same message id each time', async () => {
      const { webhook, secret } = await register(anna, '/flaky', ['post.failed']);
      listener.failing = 1;
      await recordEvents(ctx.root, postEvent(annaId, { videoId: 7 }, 'post.failed'));
      await deliver(ctx);
      let entries = await log(anna, webhook.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        ok: false,
        attempt: 1,
        willRetry: true,
        responseStatus: 500,
        responseBody: 'receiver is down',
      });
      // The job waits for its backoff (not retried at once), with the day's worth of attempts.
      const job = await ctx.tdb.db
        .selectFrom('jobs')
        .selectAll()
        .where('name', '=', webhookDeliverJob.name)
        .where('status', '=', 'queued')
        .executeTakeFirstOrThrow();
      expect(job.maxAttempts).toBe(WEBHOOK_MAX_ATTEMPTS);
      expect(Number(job.runAt)).toBeGreaterThan(Date.now() + 10_000);
      // Its time comes (moved forward rather than waited for); the next failure is retried at once here.
      await ctx.tdb.db.updateTable('jobs').set({ runAt: Date.now() }).where('id', '=', job.id).execute();
      listener.failing = 1;
      await deliver(ctx, { retryAtOnce: true });
      entries = await log(anna, webhook.id);
      expect(entries.map((e: { attempt: number; ok: boolean }) => [e.attempt, e.ok])).toEqual([
        [3, true],
        [2, false],
        [1, false],
      ]);
      expect(new Set(entries.map((e: { messageId: string }) => e.messageId)).size).toBe(1);
      expect(new Set(listener.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(listener.received.every((r) => signatureOk(secret, r))).toBe(true);
    });

    it('"rotate secret": the new secret is answered once; for the grace period both sign (new first), then only the new one', async () => {
      const { webhook, secret: old } = await register(anna, '/rotate', ['post.published']);
      const r = await ctx.call({ method: 'POST', url: `/api/webhooks/${webhook.id}/rotate-secret`, token: anna });
      expect(r.status).toBe(200);
      const fresh: string = r.body.secret;
      expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(fresh).not.toBe(old);
      // The old secret signs for the grace period from the rotation on.
      expect(Date.parse(r.body.previousSecretValidUntil) - Date.parse(r.body.webhook.updatedAt)).toBe(
        WEBHOOK_SECRET_GRACE_MS,
      );
      expect(r.body.webhook).toMatchObject({
        id: webhook.id,
        previousSecretValidUntil: r.body.previousSecretValidUntil,
      });

      // No answer but the rotation's carries a secret, old or new.
      for (const url of ['/api/webhooks', `/api/webhooks/${webhook.id}`, `/api/webhooks/${webhook.id}/deliveries`]) {
        for (const who of [anna, boss]) {
          const g = await ctx.call({ method: 'GET', url, token: who });
          expect(g.status, url).toBe(200);
          const text = JSON.stringify(g.body);
          expect(text, url).not.toContain(fresh.slice(6));
          expect(text, url).not.toContain(old.slice(6));
          expect(text, url).not.toContain('whsec_');
        }
      }
      const read = await ctx.call({ method: 'GET', url: `/api/webhooks/${webhook.id}`, token: anna });
      expect(read.body.previousSecretValidUntil).toBe(r.body.previousSecretValidUntil);

      // During the grace period: an event through the queue carries two signatures, the new secret's first.
      await recordEvents(ctx.root, postEvent(annaId, { videoId: 11 }, 'post.published'));
      await deliver(ctx);
      const during = listener.received.filter((x) => x.path === '/rotate');
      expect(during).toHaveLength(1);
      expect(signaturesOf(during[0]!)).toEqual([signatureBy(fresh, during[0]!), signatureBy(old, during[0]!)]);
      // A receiver still on the old secret, and one already on the new, both accept it.
      expect(verify(old, during[0]!)).toMatchObject({ type: 'post.published', data: { videoId: 11 } });
      expect(verify(fresh, during[0]!)).toMatchObject({ type: 'post.published' });
      expect(() => verify(`whsec_${Buffer.alloc(32, 9).toString('base64')}`, during[0]!)).toThrow();
      // "Send test" is signed the same way.
      await ctx.call({ method: 'POST', url: `/api/webhooks/${webhook.id}/test`, token: anna });
      const test = listener.received.at(-1)!;
      expect(signaturesOf(test)).toEqual([signatureBy(fresh, test), signatureBy(old, test)]);

      // The grace period over (its stored end moved into the past): the new secret alone signs.
      await ctx.tdb.db
        .updateTable('webhooks')
        .set({ previousSecretUntil: Date.now() - 1 })
        .where('id', '=', webhook.id)
        .execute();
      await recordEvents(ctx.root, postEvent(annaId, { videoId: 12 }, 'post.published'));
      await deliver(ctx);
      const after = listener.received.at(-1)!;
      expect(JSON.parse(after.body)).toMatchObject({ data: { videoId: 12 } });
      expect(signaturesOf(after)).toEqual([signatureBy(fresh, after)]);
      expect(verify(fresh, after)).toMatchObject({ type: 'post.published' });
      expect(() => verify(old, after)).toThrow();
      expect(
        (await ctx.call({ method: 'GET', url: `/api/webhooks/${webhook.id}`, token: anna })).body
          .previousSecretValidUntil,
      ).toBeNull();

      // The audit log has the rotation, by whom and until when the old secret signed: never a secret.
      const audit = await ctx.call({
        method: 'GET',
        url: `/api/audit?objectType=webhook&objectId=${webhook.id}`,
        token: boss,
      });
      const rotation = audit.body.data.find((e: { action: string }) => e.action === 'webhook.secret_rotated');
      expect(rotation).toMatchObject({
        actorLogin: 'anna',
        detail: { url: `${listener.url}/rotate`, previousSecretValidUntil: r.body.previousSecretValidUntil },
      });
      expect(JSON.stringify(audit.body)).not.toContain(fresh.slice(6));
      expect(JSON.stringify(audit.body)).not.toContain(old.slice(6));
      await ctx.call({ method: 'DELETE', url: `/api/webhooks/${webhook.id}`, token: anna });
    });

    it('"rotate secret" is the owner’s or an admin’s, never by a key; a second rotation ends the oldest secret', async () => {
      const { webhook, secret: first } = await register(anna, '/rotate-twice', ['grant.expiring']);
      const rotate = (who: { authorization: string }, id = webhook.id) =>
        ctx.call({ method: 'POST', url: `/api/webhooks/${id}/rotate-secret`, token: who });
      expect((await rotate(ivan)).status).toBe(404);
      expect((await rotate(anna, 999_999)).status).toBe(404);
      const key = await ctx.call({
        method: 'POST',
        url: '/api/api-keys',
        token: anna,
        payload: { name: 'rotator', access: 'write' },
      });
      const viaKey = await rotate({ authorization: `Bearer ${key.body.token}` });
      expect(viaKey.status).toBe(403);
      // Nothing changed by the refused ones: one signature, the first secret's.
      await ctx.call({ method: 'POST', url: `/api/webhooks/${webhook.id}/test`, token: anna });
      let got = listener.received.at(-1)!;
      expect(signaturesOf(got)).toEqual([signatureBy(first, got)]);

      const second = await rotate(boss);
      expect(second.status).toBe(200);
      const third = await rotate(anna);
      expect(third.status).toBe(200);
      // The secret in use before the last rotation (the admin's) still signs; the first one no longer does.
      await ctx.call({ method: 'POST', url: `/api/webhooks/${webhook.id}/test`, token: anna });
      got = listener.received.at(-1)!;
      expect(signaturesOf(got)).toEqual([signatureBy(third.body.secret, got), signatureBy(second.body.secret, got)]);
      expect(() => verify(first, got)).toThrow();
      await ctx.call({ method: 'DELETE', url: `/api/webhooks/${webhook.id}`, token: anna });
    });

    it('is the owner’s: others get 404, an admin sees every webhook; a key never reaches them', async () => {
      const { webhook } = await register(anna, '/owned', ['grant.lost']);
      expect((await ctx.call({ method: 'GET', url: `/api/webhooks/${webhook.id}`, token: ivan })).status).toBe(404);
      expect((await ctx.call({ method: 'POST', url: `/api/webhooks/${webhook.id}/test`, token: ivan })).status).toBe(
        404,
      );
      expect((await ctx.call({ method: 'DELETE', url: `/api/webhooks/${webhook.id}`, token: ivan })).status).toBe(404);
      const ivanList = (await ctx.call({ method: 'GET', url: '/api/webhooks', token: ivan })).body;
      expect(ivanList.map((w: { id: number }) => w.id)).not.toContain(webhook.id);
      const bossList = (await ctx.call({ method: 'GET', url: '/api/webhooks', token: boss })).body;
      expect(bossList.find((w: { id: number }) => w.id === webhook.id)).toMatchObject({ user: { login: 'anna' } });
      const off = await ctx.call({
        method: 'PATCH',
        url: `/api/webhooks/${webhook.id}`,
        token: anna,
        payload: { enabled: false },
      });
      expect(off.body.enabled).toBe(false);
      await recordEvents(ctx.root, {
        name: 'grant.lost',
        userId: annaId,
        payload: { accountId: 1, platform: 'youtube' },
      });
      await deliver(ctx);
      expect(listener.received).toEqual([]);
      const key = await ctx.call({
        method: 'POST',
        url: '/api/api-keys',
        token: anna,
        payload: { name: 'k', access: 'write' },
      });
      const viaKey = await ctx.call({
        method: 'GET',
        url: '/api/webhooks',
        token: { authorization: `Bearer ${key.body.token}` },
      });
      expect(viaKey.status).toBe(403);
      expect((await ctx.call({ method: 'DELETE', url: `/api/webhooks/${webhook.id}`, token: anna })).status).toBe(200);
    });
  },
  // The test's receiver listens on 127.0.0.1, as the simulators do.
  { allowPrivateWebhooks: true },
);

describeEachDb('webhooks: the SSRF guard', (ctx) => {
  let listener: Listener;
  let anna: { authorization: string };
  let annaId: number;

  beforeAll(async () => {
    listener = await new Listener().start();
    annaId = await ctx.createUser('anna', 'anna-pass');
    anna = (await ctx.login('anna', 'anna-pass')).headers;
  });
  afterAll(() => listener.stop());

  it('refuses URLs that point inward when saved, however spelled', async () => {
    for (const url of [
      `${listener.url}/x`,
      'http://localhost/x',
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://2130706433/x',
      'http://10.1.2.3/x',
      'http://192.168.0.10/x',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/x',
    ]) {
      const r = await ctx.call({
        method: 'POST',
        url: '/api/webhooks',
        token: anna,
        payload: { url, events: ['post.failed'] },
      });
      expect(r.status, url).toBe(400);
      expect(r.body.errors, url).toEqual({ url: 'Адреса веде у внутрішню мережу — такі адреси заборонені' });
    }
  });

  it('refuses them again when sending (a row that got there anyway): nothing reaches the address, no retry', async () => {
    const secretSealed = ctx.root.sealer.seal(`whsec_${Buffer.alloc(32, 1).toString('base64')}`);
    const id = await ctx.root.repos.webhooks.insert({
      userId: annaId,
      url: `${listener.url}/inward`,
      events: ['post.published'],
      secretSealed,
      enabled: true,
      at: Date.now(),
    });
    await recordEvents(ctx.root, postEvent(annaId, { videoId: 1 }, 'post.published'));
    await deliver(ctx, { retryAtOnce: true });
    expect(listener.received).toEqual([]);
    const entries = await ctx.root.repos.webhooks.deliveries(id, 10);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ ok: false, willRetry: false, error: 'address refused' });
    const job = await ctx.tdb.db
      .selectFrom('jobs')
      .select('status')
      .where('name', '=', webhookDeliverJob.name)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('dead');
  });
});
