import { z } from 'zod';
import { describeEachDb } from '../helpers/app';
import { keepAliveJob } from '../../server/accounts/accounts.jobs';
import { renderJob } from '../../server/videos/videos.jobs';
import { defineJob, jobWorker } from '../../server/jobs/index';
import { Metrics } from '../../server/metrics/metrics';
import { JobsRepository } from '../../server/operations/jobs.repository';
import { loadConfig } from '../../server/config';
import { buildHealthApp } from '../../server/app';

const TOKEN = 'metrics-token-0123456789';
const scrape = (ctx: Parameters<Parameters<typeof describeEachDb>[1]>[0], authorization?: string) =>
  ctx.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The value of one sample line (`name{labels} value`), or undefined. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describeEachDb(
  '/metrics with METRICS_TOKEN',
  (ctx) => {
    it('answers 401 without the token or with a wrong one, in any form', async () => {
      for (const auth of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Basic ${TOKEN}`]) {
        const r = await scrape(ctx, auth);
        expect(r.statusCode, String(auth)).toBe(401);
        expect(r.body).not.toContain('kadr_jobs');
      }
    });

    it('reports queue depth, the oldest due job, claim lag, job durations, HTTP latency by route and memory', async () => {
      const q = ctx.root.queue;
      await q.enqueue(keepAliveJob, {}, { key: 'accounts.keep-alive:metrics', runAt: new Date(Date.now() - 5000) });
      await q.enqueue(renderJob, { requestId: 9 }, { key: 'video.render:9' });
      const render = (await q.claim('worker-m', [renderJob.name], 60_000))!;
      await q.fail(render, 'ffmpeg exited with code 1', () => 0, true);
      // Requests to measure: one route twice with different ids, and one no route serves.
      const rootId = await ctx.createUser('root', 'root-pass', 'admin');
      const otherId = await ctx.createUser('other', 'other-pass');
      const admin = (await ctx.login('root', 'root-pass')).headers;
      for (const id of [rootId, otherId])
        expect((await ctx.call({ method: 'GET', url: `/api/users/${id}`, token: admin })).status).toBe(200);
      await ctx.call({ method: 'GET', url: '/api/no-such-thing', token: admin });

      const r = await scrape(ctx, `Bearer ${TOKEN}`);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = r.body;
      expect(sample(text, 'kadr_jobs{kind="accounts.keep-alive",state="queued"}')).toBe(1);
      expect(sample(text, 'kadr_jobs{kind="video.render",state="dead"}')).toBe(1);
      expect(sample(text, 'kadr_jobs_oldest_due_seconds')).toBeGreaterThanOrEqual(5);
      expect(
        sample(text, 'kadr_http_request_duration_seconds_count{method="GET",route="/api/users/:id",status="200"}'),
      ).toBe(2);
      expect(text).not.toContain(`route="/api/users/${rootId}"`);
      expect(
        sample(text, 'kadr_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}'),
      ).toBe(1);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(text).toContain('# TYPE kadr_job_duration_seconds histogram');
      expect(text).toContain('# TYPE kadr_job_claim_lag_seconds histogram');

      // A cancelled job leaves the depth at the next scrape.
      await q.cancel('accounts.keep-alive:metrics');
      const after = (await scrape(ctx, `Bearer ${TOKEN}`)).body;
      expect(sample(after, 'kadr_jobs{kind="accounts.keep-alive",state="queued"}')).toBeUndefined();
    });

    it("a worker's health port serves /metrics behind the same token, with the jobs this process ran", async () => {
      const q = ctx.root.queue;
      await q.enqueue(renderJob, { requestId: 11 }, { key: 'video.render:11', runAt: new Date(Date.now() - 2000) });
      const claimed = (await q.claim('worker-h', [renderJob.name], 60_000))!;
      // The handler as this process's runner wraps it: its claim lag and time are measured here.
      const [timed] = ctx.root.metrics!.timed([jobWorker(renderJob, async () => {})]);
      await timed!.handle({ requestId: 11 }, { job: claimed, signal: new AbortController().signal });
      const health = await buildHealthApp(ctx.root);
      try {
        for (const auth of [undefined, `Bearer ${TOKEN}x`]) {
          const r = await health.inject({
            method: 'GET',
            url: '/metrics',
            headers: auth ? { authorization: auth } : {},
          });
          expect(r.statusCode, String(auth)).toBe(401);
          expect(r.body).not.toContain('kadr_');
        }
        const r = await health.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(r.statusCode).toBe(200);
        expect(sample(r.body, 'kadr_jobs{kind="video.render",state="running"}')).toBe(1);
        expect(sample(r.body, 'kadr_job_claim_lag_seconds_count{kind="video.render"}')).toBeGreaterThanOrEqual(1);
        expect(sample(r.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      } finally {
        await health.close();
      }
    });
  },
  { metricsToken: TOKEN },
);

describeEachDb('/metrics without METRICS_TOKEN', (ctx) => {
  it('does not exist', async () => {
    expect(ctx.root.metrics).toBeUndefined();
    const r = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.statusCode).toBe(404);
    expect(r.body).not.toContain('kadr_');
  });
});

describe('job metrics of the workers', () => {
  it('time each handler by kind and outcome, and its lag from due time to claim', async () => {
    const jobs = { counts: async () => [], oldestDue: async () => null } as unknown as JobsRepository;
    const metrics = new Metrics(jobs);
    const job = defineJob({ name: 'test.metric', payload: z.object({}) });
    const [ok] = metrics.timed([jobWorker(job, async () => {})]);
    const [bad] = metrics.timed([
      jobWorker(job, async () => {
        throw new Error('boom');
      }),
    ]);
    const ctxOf = (runAt: number) => ({
      job: {
        id: 1,
        name: job.name,
        key: 'k',
        attempts: 1,
        maxAttempts: 5,
        lockedBy: 'w',
        runAt,
        stalls: 0,
        progressMark: null,
      },
      signal: new AbortController().signal,
    });
    await ok!.handle({}, ctxOf(Date.now() - 2000));
    await expect(bad!.handle({}, ctxOf(Date.now()))).rejects.toThrow('boom');
    const text = await metrics.text();
    expect(sample(text, 'kadr_job_duration_seconds_count{kind="test.metric",outcome="done"}')).toBe(1);
    expect(sample(text, 'kadr_job_duration_seconds_count{kind="test.metric",outcome="failed"}')).toBe(1);
    expect(sample(text, 'kadr_job_claim_lag_seconds_count{kind="test.metric"}')).toBe(2);
    // The 2 s late one is above the 1 s bucket, the other within it.
    expect(sample(text, 'kadr_job_claim_lag_seconds_bucket{le="1",kind="test.metric"}')).toBe(1);
  });

  it('METRICS_TOKEN is refused when shorter than 16 characters', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short', DATA_DIR: '/tmp/kadr-metrics-config' } as never)).toThrow(
      /METRICS_TOKEN/,
    );
  });
});
