import { describeEachDb } from '../helpers/app';
import { renderJob } from '../../server/videos/videos.jobs';
import { publishJob } from '../../server/publishing/publishing.jobs';
import { keepAliveJob } from '../../server/accounts/accounts.jobs';
import { statsJob } from '../../server/publishing/publishing.jobs';

const LEASE = 60_000;

describeEachDb('jobs API (the operator’s view of the queue)', (ctx) => {
  let admin: { authorization: string };
  let user: { authorization: string };
  const ids: Record<string, number> = {};
  const idOf = async (key: string) => (await ctx.root.queue.get(key))!.id;

  beforeAll(async () => {
    await ctx.createUser('root', 'root-pass', 'admin');
    await ctx.createUser('worker', 'worker-pass');
    admin = (await ctx.login('root', 'root-pass')).headers;
    user = (await ctx.login('worker', 'worker-pass')).headers;
    const q = ctx.root.queue;
    // A render that failed for good, a publish step a worker holds, one waiting, and two periodic passes.
    await q.enqueue(renderJob, { requestId: 7 }, { key: 'video.render:7' });
    const render = (await q.claim('worker-r', [renderJob.name], LEASE))!;
    await q.fail(render, 'ffmpeg exited with code 1', () => 0, true);
    await q.enqueue(publishJob, { publishId: 3, step: 0 }, { key: 'publication.publish:3:0', progress: 'uploading' });
    await q.claim('worker-a', [publishJob.name], LEASE);
    await q.enqueue(publishJob, { publishId: 4, step: 0 }, { key: 'publication.publish:4:0' });
    await q.enqueue(keepAliveJob, {}, { key: 'accounts.keep-alive:test' });
    await q.enqueue(statsJob, {}, { key: 'publication.stats:test' });
    for (const key of ['video.render:7', 'publication.publish:3:0', 'publication.publish:4:0'])
      ids[key] = await idOf(key);
    ids.keepAlive = await idOf('accounts.keep-alive:test');
    ids.stats = await idOf('publication.stats:test');
  });

  it('is admin-only: a user gets 403, a stranger 401', async () => {
    for (const [method, url] of [
      ['GET', '/api/jobs'],
      ['GET', '/api/jobs/summary'],
      ['POST', `/api/jobs/${ids.keepAlive}/retry`],
      ['POST', `/api/jobs/${ids.keepAlive}/cancel`],
    ] as const) {
      expect((await ctx.call({ method, url, token: user })).status, `${method} ${url}`).toBe(403);
      expect((await ctx.call({ method, url })).status, `${method} ${url}`).toBe(401);
    }
    expect(await ctx.root.queue.get(ids.keepAlive!)).toBeDefined();
  });

  it('lists jobs in the page envelope with state, owner, progress, reason and claim lag', async () => {
    const dead = await ctx.call({ method: 'GET', url: '/api/jobs?kind=video.render', token: admin });
    expect(dead.status).toBe(200);
    expect(dead.body).toMatchObject({ page: 1, total: 1, totalPages: 1 });
    const row = dead.body.data[0];
    expect(row).toMatchObject({
      id: ids['video.render:7'],
      kind: 'video.render',
      state: 'dead',
      attempts: 1,
      maxAttempts: 3,
      owner: null,
      reason: 'ffmpeg exited with code 1',
      canRetry: true,
      canCancel: false,
    });
    expect(row.claimedAt).toBeGreaterThanOrEqual(row.runAt);
    expect(row.lagMs).toBe(row.claimedAt - row.runAt);

    const running = await ctx.call({ method: 'GET', url: '/api/jobs?state=running', token: admin });
    expect(running.body.data).toEqual([
      expect.objectContaining({
        key: 'publication.publish:3:0',
        state: 'running',
        owner: 'worker-a',
        progress: 'uploading',
        canRetry: false,
        canCancel: false,
      }),
    ]);

    const queued = await ctx.call({ method: 'GET', url: '/api/jobs?state=queued&sort=id&order=ASC', token: admin });
    expect(queued.body.data.map((j: { key: string }) => j.key)).toEqual([
      'publication.publish:4:0',
      'accounts.keep-alive:test',
      'publication.stats:test',
    ]);
    expect(queued.body.data.map((j: { canCancel: boolean }) => j.canCancel)).toEqual([false, true, true]);
    // A due job not claimed yet: its lag so far; it has no claim.
    expect(queued.body.data[0]).toMatchObject({ claimedAt: null, owner: null });
    expect(queued.body.data[0].lagMs).toBeGreaterThanOrEqual(0);

    const searched = await ctx.call({ method: 'GET', url: '/api/jobs?q=keep-alive', token: admin });
    expect(searched.body.data.map((j: { id: number }) => j.id)).toEqual([ids.keepAlive]);
    const bad = await ctx.call({ method: 'GET', url: '/api/jobs?state=lost', token: admin });
    expect(bad.status).toBe(400);
    const badSort = await ctx.call({ method: 'GET', url: '/api/jobs?sort=payload', token: admin });
    expect(badSort.status).toBe(400);
  });

  it('sums jobs per kind and state with the oldest due job’s wait', async () => {
    const r = await ctx.call({ method: 'GET', url: '/api/jobs/summary', token: admin });
    expect(r.status).toBe(200);
    expect(r.body.kinds).toEqual(
      expect.arrayContaining(['video.render', 'publication.publish', 'accounts.keep-alive', 'ai.video.generate']),
    );
    const count = (kind: string, state: string) =>
      r.body.counts.find((c: { kind: string; state: string }) => c.kind === kind && c.state === state)?.count;
    expect(count('video.render', 'dead')).toBe(1);
    expect(count('publication.publish', 'running')).toBe(1);
    expect(count('publication.publish', 'queued')).toBe(1);
    expect(count('accounts.keep-alive', 'queued')).toBe(1);
    expect(r.body.oldestDueLagMs).toBeGreaterThanOrEqual(0);
  });

  it('cancels a queued job only of a kind that is safe to cancel, and says why not otherwise', async () => {
    const publish = await ctx.call({
      method: 'POST',
      url: `/api/jobs/${ids['publication.publish:4:0']}/cancel`,
      token: admin,
      headers: { 'accept-language': 'en' },
    });
    expect(publish.status).toBe(409);
    expect(publish.body.message).toBe(
      'A "publication.publish" job is not cancelled behind the publishing worker\'s back: cancel the post itself instead',
    );
    expect(await ctx.root.queue.get(ids['publication.publish:4:0']!)).toMatchObject({ status: 'queued' });
    const render = await ctx.call({ method: 'POST', url: `/api/jobs/${ids['video.render:7']}/cancel`, token: admin });
    expect(render.status).toBe(409);

    const ok = await ctx.call({ method: 'POST', url: `/api/jobs/${ids.keepAlive}/cancel`, token: admin });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: ids.keepAlive, kind: 'accounts.keep-alive' });
    expect(await ctx.root.queue.get(ids.keepAlive!)).toBeUndefined();
    expect((await ctx.call({ method: 'POST', url: `/api/jobs/${ids.keepAlive}/cancel`, token: admin })).status).toBe(
      404,
    );

    // A safe kind a worker has claimed meanwhile is its worker's: 409 naming the state.
    await ctx.root.queue.claim('worker-s', [statsJob.name], LEASE);
    const claimed = await ctx.call({
      method: 'POST',
      url: `/api/jobs/${ids.stats}/cancel`,
      token: admin,
      headers: { 'accept-language': 'en' },
    });
    expect(claimed.status).toBe(409);
    expect(claimed.body.message).toBe('Only a job waiting in the queue can be cancelled (it is running)');
    expect(await ctx.root.queue.get(ids.stats!)).toMatchObject({ status: 'running', lockedBy: 'worker-s' });
  });

  it('retries a dead job now with its attempts back, and nothing else', async () => {
    const id = ids['video.render:7']!;
    const r = await ctx.call({ method: 'POST', url: `/api/jobs/${id}/retry`, token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, state: 'retrying', attempts: 0, reason: 'ffmpeg exited with code 1' });
    // Due now: a worker claims it at once and it runs with all its attempts.
    const again = await ctx.root.queue.claim('worker-r2', [renderJob.name], LEASE);
    expect(again).toMatchObject({ id, attempts: 1, maxAttempts: 3 });
    const running = await ctx.call({
      method: 'POST',
      url: `/api/jobs/${id}/retry`,
      token: admin,
      headers: { 'accept-language': 'en' },
    });
    expect(running.status).toBe(409);
    expect(running.body.message).toBe('Only a dead or failed job can be retried (it is running)');
    const queued = await ctx.call({
      method: 'POST',
      url: `/api/jobs/${ids['publication.publish:4:0']}/retry`,
      token: admin,
    });
    expect(queued.status).toBe(409);
    expect((await ctx.call({ method: 'POST', url: '/api/jobs/999999/retry', token: admin })).status).toBe(404);
    expect((await ctx.call({ method: 'POST', url: '/api/jobs/x/retry', token: admin })).status).toBe(400);
  });
});
