// PROCESS_ROLE, HEALTH_PORT, WORKER_KINDS, WORKER_CONCURRENCY and the shared keys on PostgreSQL (server/config.ts),
// and the runner plan made from them over the job catalogue (server/jobs/runner-plan.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config';
import { planRunner } from '../../server/jobs/runner-plan';

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'kadr-config-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const KEYS = { APP_KEY: 'k'.repeat(40), JWT_SECRET: 'j'.repeat(40) };
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });

describe('process roles', () => {
  it('runs everything in one process by default (npm start unchanged)', () => {
    const c = load({});
    expect(c.role).toBe('all');
    expect(c.healthPort).toBeUndefined();
    expect(c.workerKinds).toBeUndefined();
    expect(c.workerConcurrency).toEqual({});
  });

  it('reads WORKERS=off as the older spelling of PROCESS_ROLE=api, and WORKERS=on as all', () => {
    expect(load({ WORKERS: 'off' }).role).toBe('api');
    expect(load({ WORKERS: 'on' }).role).toBe('all');
    expect(load({ PROCESS_ROLE: 'api', WORKERS: 'off' }).role).toBe('api');
  });

  it('refuses WORKERS contradicting PROCESS_ROLE, naming the variable', () => {
    expect(() => load({ PROCESS_ROLE: 'worker', WORKERS: 'off', HEALTH_PORT: '9100' })).toThrow(
      /WORKERS: WORKERS=off contradicts PROCESS_ROLE=worker/,
    );
    expect(() => load({ PROCESS_ROLE: 'api', WORKERS: 'on' })).toThrow(/WORKERS: WORKERS=on contradicts/);
  });

  it('a worker needs HEALTH_PORT; the other roles ignore it', () => {
    expect(() => load({ PROCESS_ROLE: 'worker' })).toThrow(/HEALTH_PORT: required when PROCESS_ROLE=worker/);
    expect(load({ PROCESS_ROLE: 'worker', HEALTH_PORT: '9100' })).toMatchObject({ role: 'worker', healthPort: 9100 });
    expect(load({ PROCESS_ROLE: 'api', HEALTH_PORT: '9100' }).healthPort).toBeUndefined();
    expect(load({ HEALTH_PORT: '9100' }).healthPort).toBeUndefined();
  });

  it('refuses a role or a health port it does not know, naming the variable', () => {
    expect(() => load({ PROCESS_ROLE: 'scheduler' })).toThrow(/PROCESS_ROLE: /);
    expect(() => load({ PROCESS_ROLE: 'worker', HEALTH_PORT: '70000' })).toThrow(/HEALTH_PORT: /);
  });
});

describe('worker kinds and per-kind limits', () => {
  it('parses WORKER_KINDS as a comma list and WORKER_CONCURRENCY as kind=n pairs', () => {
    const c = load({
      WORKER_KINDS: 'video.render, publication.publish',
      WORKER_CONCURRENCY: 'video.render=2 ,ai.video.generate=8',
    });
    expect(c.workerKinds).toEqual(['video.render', 'publication.publish']);
    expect(c.workerConcurrency).toEqual({ 'video.render': 2, 'ai.video.generate': 8 });
  });

  it('refuses a malformed list or limit, naming the variable', () => {
    expect(() => load({ WORKER_KINDS: 'video.render,,' })).toThrow(/WORKER_KINDS: a comma-separated list of job kinds/);
    expect(() => load({ WORKER_KINDS: '' })).toThrow(/WORKER_KINDS: /);
    expect(() => load({ WORKER_CONCURRENCY: 'video.render=0' })).toThrow(/WORKER_CONCURRENCY: `kind=n,kind=n`/);
    expect(() => load({ WORKER_CONCURRENCY: 'video.render' })).toThrow(/WORKER_CONCURRENCY: /);
  });

  const CATALOGUE = ['video.render', 'accounts.keep-alive', 'publication.publish'];
  const DEFAULTS = { 'video.render': 1, 'publication.publish': 4 };

  it('plans every kind with its default limit when nothing is asked', () => {
    expect(planRunner(CATALOGUE, DEFAULTS, {})).toEqual({
      kinds: CATALOGUE,
      limits: { 'video.render': 1, 'accounts.keep-alive': 1, 'publication.publish': 4 },
    });
  });

  it('plans only the asked kinds, with the asked limits over the defaults', () => {
    expect(
      planRunner(CATALOGUE, DEFAULTS, {
        kinds: ['publication.publish', 'video.render'],
        concurrency: { 'video.render': 3 },
      }),
    ).toEqual({
      kinds: ['video.render', 'publication.publish'],
      limits: { 'video.render': 3, 'publication.publish': 4 },
    });
  });

  it('refuses a kind the catalogue does not know, naming the variable and the known kinds', () => {
    expect(() => planRunner(CATALOGUE, DEFAULTS, { kinds: ['video.render', 'video.rendr'] })).toThrow(
      'WORKER_KINDS: unknown job kind "video.rendr" (known: video.render, accounts.keep-alive, publication.publish)',
    );
    expect(() => planRunner(CATALOGUE, DEFAULTS, { concurrency: { 'publication.pubilsh': 2 } })).toThrow(
      /WORKER_CONCURRENCY: unknown job kind "publication.pubilsh"/,
    );
  });
});

describe('how long finished jobs are kept', () => {
  it('keeps done jobs 7 days and dead ones 30 by default, and reads durations in s, m, h or d', () => {
    expect(load({}).jobsKeep).toEqual({ finishedMs: 7 * 86_400_000, deadMs: 30 * 86_400_000 });
    expect(load({ JOBS_KEEP_FINISHED: '36h', JOBS_KEEP_DEAD: '90m' }).jobsKeep).toEqual({
      finishedMs: 36 * 3_600_000,
      deadMs: 90 * 60_000,
    });
    expect(load({ JOBS_KEEP_FINISHED: '45s' }).jobsKeep.finishedMs).toBe(45_000);
  });

  it('refuses a duration without its unit, naming the variable', () => {
    expect(() => load({ JOBS_KEEP_FINISHED: '7' })).toThrow(/JOBS_KEEP_FINISHED: a duration such as/);
    expect(() => load({ JOBS_KEEP_DEAD: '0d' })).toThrow(/JOBS_KEEP_DEAD: a duration such as/);
  });
});

describe('keys on PostgreSQL', () => {
  it('refuses to start on PostgreSQL without APP_KEY and JWT_SECRET given, naming them', () => {
    const url = 'postgres://kadr@db.example:5432/kadr';
    expect(() => load({ DATABASE_URL: url })).toThrow(/APP_KEY, JWT_SECRET: required with DATABASE_URL/);
    expect(() => load({ DATABASE_URL: url, APP_KEY: KEYS.APP_KEY })).toThrow(
      /^Invalid configuration:\n {2}JWT_SECRET: /,
    );
    expect(() => load({ DATABASE_URL: url, JWT_SECRET: KEYS.JWT_SECRET })).toThrow(/ {2}APP_KEY: required/);
    expect(load({ DATABASE_URL: url, ...KEYS })).toMatchObject({ databaseUrl: url, appKey: KEYS.APP_KEY });
  });

  it('still generates the keys into DATA_DIR for the embedded SQLite default (an empty DATABASE_URL too)', () => {
    const c = load({ DATABASE_URL: '' });
    expect(c.appKey).toMatch(/^[\w-]{40,}$/);
    expect(load({}).appKey).toBe(c.appKey);
  });
});
