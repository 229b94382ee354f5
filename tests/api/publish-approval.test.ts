import { createReadStream } from 'node:fs';
import { decodeMessage } from '../../src/contract/stored-message';
import { translate } from '../../server/http/i18n';
import { enqueuePublishStep } from '../../server/publishing/publishing.jobs';
import { describeEachDb } from '../helpers/app';
import { seedStoredRequest } from '../helpers/finished-request';
import { PUBLISH_TIMING as timing, publishBench, publisher, publishRunner, settle } from './publish.fixtures';

/**
 * Approval before posting (issue 23 item 3), on both databases against the three platform simulators: a user
 * whose publications need approval tries every way in (the publish form's API, an API key, a CSV import, AI
 * publish, retry now, publish again, a calendar move, an edit after approval, a stray job), and nothing reaches a
 * simulator before an admin approves; an approval sends it, a rejection ends it with the reason; only an admin
 * decides.
 */
const bench = publishBench();
const HOUR = 3600_000;
const RESTING = ['awaiting_approval', 'published', 'failed', 'cancelled', 'waiting'];

/** Polls `probe` every 20 ms (no fixed sleep as synchronisation) until it answers something. */
async function until<T>(what: string, probe: () => Promise<T | undefined | false>, maxMs = 20_000): Promise<T> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describeEachDb(
  'approval before posting',
  (ctx) => {
    const me = publisher(ctx, bench, 'appr-user');
    let admin = { authorization: '' };
    let adminId = 0;
    const db = () => ctx.tdb.db;
    const rowsOf = (videoId: number) =>
      db().selectFrom('videoPublishes').selectAll().where('videoId', '=', videoId).orderBy('platform').execute();
    const total = () => {
      const c = me.counts();
      return c.youtube + c.tiktok + c.instagram;
    };

    /** The publish form's save, through the API: a finished request's one video on `platforms` at `date`. */
    async function formPost(
      platforms: { inYouTube?: boolean; inTikTok?: boolean },
      date = new Date(),
      token: { authorization: string } = me.token,
    ) {
      const req = await seedStoredRequest(db(), ctx.root.media.storage, me.userId, [bench.clip.file]);
      const v = { title: 'На схвалення', description: 'Опис', tags: ['kadr'] };
      const r = await ctx.call({
        method: 'POST',
        url: `/api/upload-video/${req.idUpload}`,
        token,
        payload: {
          ...v,
          accounts: [me.accountId],
          video: [{ id: req.videos[0], ...v, account: me.accountId, date: date.toISOString() }],
          date: date.toISOString(),
          ...platforms,
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      return { videoId: req.videos[0]!, publicationId: r.body.id as number, idUpload: req.idUpload };
    }
    const approve = (id: number, token = admin) =>
      ctx.call({ method: 'POST', url: `/api/approvals/${id}/approve`, token });
    const reject = (id: number, reason: string, token = admin) =>
      ctx.call({ method: 'POST', url: `/api/approvals/${id}/reject`, token, payload: { reason } });
    const rest = (ids: number[]) => settle(ctx, ids, { until: RESTING });

    beforeAll(async () => {
      adminId = await ctx.createUser('appr-admin', 'appr-admin-pass', 'admin');
      admin = (await ctx.login('appr-admin', 'appr-admin-pass')).headers;
      // The admin sets the flag on the user form (PATCH /api/users/{id}).
      const r = await ctx.call({
        method: 'PATCH',
        url: `/api/users/${me.userId}`,
        token: admin,
        payload: { login: 'appr-user', needsApproval: true },
      });
      expect(r.status).toBe(200);
      expect(r.body.needsApproval).toBe(true);
    });

    it('the publish form: posts stop awaiting approval, nothing is sent; the admin sees them and is told', async () => {
      const before = total();
      const { videoId } = await formPost({ inYouTube: true, inTikTok: true });
      const rows = await rest((await rowsOf(videoId)).map((r) => r.id));
      expect(
        rows.map((r) => r.state),
        JSON.stringify(rows.map((r) => r.error)),
      ).toEqual(['awaiting_approval', 'awaiting_approval']);
      expect(total()).toBe(before);
      // A stray step of its chain (a job race, any future path) finds it awaiting and does nothing.
      for (const row of rows)
        await db()
          .transaction()
          .execute((trx) =>
            enqueuePublishStep(
              { enqueue: ctx.root.queue.enqueue, posts: ctx.root.repos.posts },
              trx,
              row.id,
              Number(row.step) + 1,
              new Date(),
            ),
          );
      await publishRunner(ctx).drain();
      expect((await rowsOf(videoId)).map((r) => r.state)).toEqual(['awaiting_approval', 'awaiting_approval']);
      expect(total()).toBe(before);

      const list = await ctx.call({ method: 'GET', url: '/api/approvals', token: admin });
      expect(list.status).toBe(200);
      const mine = (list.body.data as { id: number; owner: { login: string }; title: string }[]).filter((i) =>
        rows.some((r) => r.id === i.id),
      );
      expect(mine).toHaveLength(2);
      expect(mine[0]!.owner.login).toBe('appr-user');
      expect(mine[0]!.title).toBe('На схвалення');
      // The admins' bell: one notice per post, linking to the list.
      const notices = await until('the admin notices', async () => {
        const n = await db()
          .selectFrom('notifications')
          .selectAll()
          .where('userId', '=', adminId)
          .where('kind', '=', 'approval_needed')
          .execute();
        const ours = n.filter((x) => (JSON.parse(x.params) as { videoId: number }).videoId === videoId);
        return ours.length === 2 && ours;
      });
      expect(notices[0]!.link).toBe('/approvals');
      // Retry now is not a way out of it.
      const retry = await ctx.call({
        method: 'POST',
        url: `/api/upload-video/video/${videoId}/tiktok/retry`,
        token: me.token,
      });
      expect(retry.status).toBe(400);
      await publishRunner(ctx).drain();
      expect(total()).toBe(before);
    });

    it('an API key and a CSV import stop awaiting approval too: nothing is sent', async () => {
      const before = total();
      const made = await ctx.call({
        method: 'POST',
        url: '/api/api-keys',
        token: me.token,
        payload: { name: 'script', access: 'write' },
      });
      expect(made.status).toBe(201);
      const key = { authorization: `Bearer ${made.body.token as string}` };
      const byKey = await formPost({ inYouTube: true }, new Date(), key);

      const req = await seedStoredRequest(db(), ctx.root.media.storage, me.userId, [bench.clip.file]);
      const header = 'video;profile;group;platforms;title;description;tags;date;repeat';
      const row = `${req.videos[0]};${me.accountId};;tiktok;З таблиці;;;2030-03-01 10:00;`;
      const imported = await ctx.call({
        method: 'POST',
        url: '/api/imports/publications',
        token: me.token,
        payload: { csv: `${header}\r\n${row}\r\n` },
      });
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);

      const ids = [...(await rowsOf(byKey.videoId)), ...(await rowsOf(req.videos[0]!))].map((r) => r.id);
      expect(ids).toHaveLength(2);
      const rows = await rest(ids);
      expect(rows.map((r) => [r.platform, r.state])).toEqual([
        ['youtube', 'awaiting_approval'],
        ['tiktok', 'awaiting_approval'],
      ]);
      expect(total()).toBe(before);
    });

    it('only an admin decides: the user gets 403 on the list, approve and reject', async () => {
      const { videoId } = await formPost({ inYouTube: true });
      const [row] = await rest((await rowsOf(videoId)).map((r) => r.id));
      expect(row!.state).toBe('awaiting_approval');
      expect((await ctx.call({ method: 'GET', url: '/api/approvals', token: me.token })).status).toBe(403);
      expect((await approve(row!.id, me.token)).status).toBe(403);
      expect((await reject(row!.id, 'no', me.token)).status).toBe(403);
      expect((await rowsOf(videoId))[0]!.state).toBe('awaiting_approval');
      // A reason is required (a 400 naming it), and an unknown post is a 404.
      const empty = await reject(row!.id, '  ');
      expect(empty.status).toBe(400);
      expect(empty.body.errors).toHaveProperty('reason');
      expect((await approve(999_999)).status).toBe(404);
    });

    it('approved, a past-due post goes out at once; rejected, it fails with the reason and publishing again asks again', async () => {
      const before = me.counts();
      const { videoId, publicationId } = await formPost({ inYouTube: true, inTikTok: true });
      const rows = await rest((await rowsOf(videoId)).map((r) => r.id));
      const tiktok = rows.find((r) => r.platform === 'tiktok');
      const youtube = rows.find((r) => r.platform === 'youtube');

      const ok = await approve(youtube!.id);
      expect(ok.status).toBe(200);
      expect(ok.body.state).toBe('scheduled');
      expect((await approve(youtube!.id)).status).toBe(409); // decided already

      const no = await reject(tiktok!.id, 'Назва не відповідає правилам');
      expect(no.status).toBe(200);
      expect(no.body.state).toBe('failed');

      const done = await rest(rows.map((r) => r.id));
      expect(done.find((r) => r.platform === 'youtube')!.state).toBe('published');
      const failed = done.find((r) => r.platform === 'tiktok')!;
      expect(failed.state).toBe('failed');
      const reason = decodeMessage(failed.error ?? '');
      expect(reason?.key).toBe('kadr.approvals.rejected_reason');
      expect(reason?.params.reason).toBe('Назва не відповідає правилам');
      expect(translate(failed.error ?? '', 'en')).toContain('Назва не відповідає правилам');
      expect(me.counts().youtube).toBe(before.youtube + 1);
      expect(me.counts().tiktok).toBe(before.tiktok);
      // Both decisions are in the audit log, with the admin and the reason.
      const audit = await db()
        .selectFrom('auditLog')
        .select(['action', 'objectId', 'actorId', 'detail'])
        .where('objectType', '=', 'post')
        .where('objectId', 'in', [String(youtube!.id), String(tiktok!.id)])
        .orderBy('id')
        .execute();
      expect(audit.map((a) => [a.action, a.objectId])).toEqual([
        ['publication.approved', String(youtube!.id)],
        ['publication.rejected', String(tiktok!.id)],
      ]);
      expect(JSON.parse(audit[1]!.detail!)).toMatchObject({ reason: 'Назва не відповідає правилам' });
      // The owner's bell says it failed, with the reason.
      await until('the owner notice', async () => {
        const n = await db()
          .selectFrom('notifications')
          .selectAll()
          .where('userId', '=', me.userId)
          .where('kind', '=', 'publish_failed')
          .execute();
        return n.some((x) => String(JSON.parse(x.params).error).includes('Назва не відповідає правилам'));
      });

      // Publish again (the video is in error): the rejected post starts afresh and asks again.
      const again = await ctx.call({
        method: 'POST',
        url: '/api/upload-video/upload',
        token: me.token,
        payload: { videoId, youTubeId: publicationId },
      });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      const after = await rest([tiktok!.id]);
      expect(after[0]!.state).toBe('awaiting_approval');
      expect(me.counts().tiktok).toBe(before.tiktok);
    });

    it('AI publish stops awaiting approval too', async () => {
      const before = total();
      const at = new Date().toISOString();
      const key = `ai/${me.userId}/approval.mp4`;
      await ctx.root.media.storage.put(key, createReadStream(bench.clip.file));
      const ai = await db()
        .insertInto('aiVideos')
        .values({
          userId: me.userId,
          sessionId: null,
          status: 'success',
          prompt: 'a cat',
          title: 'AI кіт',
          storageKey: key,
          createdAt: at,
          updatedAt: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const v = { title: 'AI кіт', description: '', tags: ['ai'] };
      const r = await ctx.call({
        method: 'POST',
        url: `/api/upload-video/ai/${ai.id}`,
        token: me.token,
        payload: {
          ...v,
          accounts: [me.accountId],
          video: [{ id: ai.id, ...v, account: me.accountId, date: at }],
          date: at,
          inInstagram: true,
          inTikTok: true,
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      const rows = await rest((await rowsOf(r.body.videoId as number)).map((x) => x.id));
      expect(rows.map((x) => x.state)).toEqual(['awaiting_approval', 'awaiting_approval']);
      expect(total()).toBe(before);
    });

    it('an edit or a calendar move after approval asks again; approved, a future post waits for its date', async () => {
      const before = total();
      const date = new Date(Date.now() + 48 * HOUR);
      const { videoId, publicationId } = await formPost({ inYouTube: true }, date);
      const [row] = await rest((await rowsOf(videoId)).map((r) => r.id));
      // Looked at now, not at its date: it awaits approval well ahead of it.
      expect(row!.state).toBe('awaiting_approval');

      expect((await approve(row!.id)).status).toBe(200);
      await publishRunner(ctx).drain();
      const approved = (await rowsOf(videoId))[0]!;
      expect(approved.state).toBe('scheduled');
      expect(approved.approvedBy).toBe(adminId);
      expect(total()).toBe(before);

      // An edit of the approved post (its title): asked again at once.
      const edit = await ctx.call({
        method: 'PATCH',
        url: `/api/upload-video/${publicationId}`,
        token: me.token,
        payload: { title: 'Інша назва', description: 'Опис', tags: ['kadr'], inYouTube: true },
      });
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);
      await publishRunner(ctx).drain();
      expect((await rowsOf(videoId))[0]!.state).toBe('awaiting_approval');
      const list = await ctx.call({ method: 'GET', url: '/api/approvals', token: admin });
      expect((list.body.data as { id: number; title: string }[]).find((i) => i.id === row!.id)?.title).toBe(
        'Інша назва',
      );

      // Approved again, then dragged in the calendar to another time: asked again.
      expect((await approve(row!.id)).status).toBe(200);
      await publishRunner(ctx).drain();
      expect((await rowsOf(videoId))[0]!.state).toBe('scheduled');
      const moved = await ctx.call({
        method: 'POST',
        url: `/api/calendar/posts/${row!.id}/move`,
        token: me.token,
        payload: { at: new Date(date.getTime() + HOUR).toISOString() },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      await publishRunner(ctx).drain();
      expect((await rowsOf(videoId))[0]!.state).toBe('awaiting_approval');

      // Awaiting approval, it can be moved in the calendar too (and stays awaiting).
      const again = await ctx.call({
        method: 'POST',
        url: `/api/calendar/posts/${row!.id}/move`,
        token: me.token,
        payload: { at: new Date(date.getTime() + 2 * HOUR).toISOString() },
      });
      expect(again.status).toBe(200);
      await publishRunner(ctx).drain();
      expect((await rowsOf(videoId))[0]!.state).toBe('awaiting_approval');
      expect(total()).toBe(before);
    });

    it('a user who needs no approval posts as before', async () => {
      const r = await ctx.call({
        method: 'PATCH',
        url: `/api/users/${me.userId}`,
        token: admin,
        payload: { login: 'appr-user', needsApproval: false },
      });
      expect(r.body.needsApproval).toBe(false);
      const before = me.counts().youtube;
      const { videoId } = await formPost({ inYouTube: true });
      const [row] = await rest((await rowsOf(videoId)).map((x) => x.id));
      expect(row!.state).toBe('published');
      expect(me.counts().youtube).toBe(before + 1);
    });
  },
  bench.overrides,
  { publishTiming: timing },
);
