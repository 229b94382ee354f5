import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../server/db/index';
import { startSimulators, type Simulators, type StartSimulatorsOptions } from '../../sim/platforms/index';
import { makeTestDb, type TestDb } from './db';
import { freePort } from './free-port';
import { startS3Server, type S3TestServer } from './s3-server';

/**
 * The scaled-out shape on one machine, for tests and benchmarks: API processes and worker processes as real
 * child processes (`node --import tsx server/main.ts`, each with its own DATA_DIR as on its own machine) sharing
 * one PostgreSQL database made for the run (the processes migrate it as they start), one bucket on a local S3
 * server, and the platform simulators, which live in this process so the caller can count their posts.
 * `stop()` ends every child process group, the S3 server, the simulators and the database, whatever state
 * the run is in.
 */
export type ProcessRole = 'api' | 'worker';

export type ClusterProcess = {
  name: string;
  role: ProcessRole;
  /** The server process's pid: the one in the `locked_by` of the jobs it claims (`host:pid:…`). */
  pid: number;
  /** api: its base URL (panel, API, health); worker: the base URL of its health port. */
  url: string;
  /** Its own DATA_DIR (scratch folders); removed once it exited. */
  dataDir: string;
  /** The process's last output (for a failure message). */
  log(): string;
  alive(): boolean;
  /** Sends `signal` to the whole process group (its ffmpeg too, as a container kill does); resolves once it exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
};

export type ClusterOptions = {
  apis: number;
  workers: number;
  /** More environment for every process (RENDER_CONCURRENCY, WORKER_CONCURRENCY, …). */
  env?: Record<string, string>;
  simulators?: StartSimulatorsOptions;
};

export type Cluster = {
  /** The test's own connection to the shared database. */
  db: Db;
  s3: S3TestServer;
  bucket: string;
  sims: Simulators;
  /** Every process started so far, killed ones included, in start order. */
  processes: ClusterProcess[];
  apis(): ClusterProcess[];
  workers(): ClusterProcess[];
  /** Starts one more process of `role` on the shared database and bucket; resolves once it is ready. */
  start(role: ProcessRole): Promise<ClusterProcess>;
  /** The living process whose job runner wrote `lockedBy` on a job row. */
  ownerOf(lockedBy: string): ClusterProcess | undefined;
  stop(): Promise<void>;
};

/** The first admin every process creates when the database has no user yet. */
export const CLUSTER_ADMIN = { login: 'admin', password: 'admin-pass' } as const;
const SECRETS = { APP_KEY: 'cluster-app-key-0123456789abcdef', JWT_SECRET: 'c'.repeat(40) };
const READY_WITHIN_MS = 120_000;
const STOP_WITHIN_MS = 20_000;
const LOG_KEPT = 64 * 1024;

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const parts: { tdb?: TestDb; s3?: S3TestServer; sims?: Simulators } = {};
  const processes: ClusterProcess[] = [];
  const stop = async () => {
    const errors: unknown[] = [];
    const attempt = async (step: () => Promise<unknown> | undefined) => {
      try {
        await step();
      } catch (err) {
        errors.push(err);
      }
    };
    await Promise.all(processes.filter((p) => p.alive()).map((p) => attempt(() => p.kill('SIGTERM'))));
    await attempt(() => parts.sims?.close());
    await attempt(() => parts.s3?.stop());
    await attempt(() => parts.tdb?.drop());
    if (errors.length) throw new AggregateError(errors, 'the cluster did not stop cleanly');
  };
  try {
    parts.tdb = await makeTestDb('postgres', { migrate: false });
    parts.s3 = await startS3Server();
    const bucket = 'kadr-cluster';
    await parts.s3.createBucket(bucket);
    parts.sims = await startSimulators(opts.simulators);
    const [s3, sims, tdb] = [parts.s3, parts.sims, parts.tdb];
    // Every process names the first API process as the public address (a load balancer's, in production):
    // OAuth callbacks and the media links Instagram fetches.
    const firstApiPort = await freePort();
    const shared: Record<string, string> = {
      ...sims.env,
      ...s3.env(bucket),
      ...SECRETS,
      HOST: '127.0.0.1',
      DATABASE_URL: tdb.url!,
      PUBLIC_URL: `http://127.0.0.1:${firstApiPort}`,
      ADMIN_LOGIN: CLUSTER_ADMIN.login,
      ADMIN_PASSWORD: CLUSTER_ADMIN.password,
      ALLOW_PRIVATE_PROXIES: 'true', // the simulators and the test's proxies listen on 127.0.0.1
      JOB_LEASE_SEC: '5', // a killed worker's job is taken over 5 s after its last heartbeat
      JOB_POLL_MS: '200',
      LOG_LEVEL: 'info',
      ...opts.env,
    };
    let apiPort: number | undefined = firstApiPort;
    const start = async (role: ProcessRole) => {
      const port = apiPort ?? (await freePort());
      apiPort = undefined;
      const proc = spawnServer(`${role}-${processes.filter((p) => p.role === role).length + 1}`, role, port, shared);
      processes.push(proc);
      await ready(proc);
      return proc;
    };
    const apis = Array.from({ length: opts.apis }, () => start('api'));
    const workers = Array.from({ length: opts.workers }, () => start('worker'));
    await Promise.all([...apis, ...workers]);
    return {
      db: tdb.db,
      s3,
      bucket,
      sims,
      processes,
      apis: () => processes.filter((p) => p.role === 'api' && p.alive()),
      workers: () => processes.filter((p) => p.role === 'worker' && p.alive()),
      start,
      ownerOf: (lockedBy) => processes.find((p) => p.alive() && lockedBy.split(':').includes(String(p.pid))),
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined); // the start's own error is the one to report
    throw err;
  }
}

/** One server process of `role`: an API on `port`, or a worker with its health endpoints on `port`. */
function spawnServer(name: string, role: ProcessRole, port: number, shared: Record<string, string>): ClusterProcess {
  const dataDir = mkdtempSync(join(tmpdir(), `kadr-${name}-`));
  const env: Record<string, string | undefined> = {
    ...process.env,
    // What this shell may have set for a process of its own is not the cluster's (undefined: not passed on).
    WORKERS: undefined,
    WORKER_KINDS: undefined,
    WORKER_CONCURRENCY: undefined,
    ...shared,
    DATA_DIR: dataDir,
    PROCESS_ROLE: role,
    ...(role === 'api' ? { PORT: String(port) } : { HEALTH_PORT: String(port) }),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    detached: true, // its own process group: a kill reaches its ffmpeg children too
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let log = '';
  const keep = (d: Buffer) => {
    log = (log + d.toString()).slice(-LOG_KEPT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  void exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  return {
    name,
    role,
    pid: child.pid!,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    log: () => log,
    alive,
    async kill(signal) {
      const send = (sig: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, sig);
        } catch {
          /* the group is gone */
        }
      };
      if (!alive()) return exited;
      send(signal);
      if (signal === 'SIGKILL') return exited;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(true), STOP_WITHIN_MS)));
      if (await Promise.race([exited.then(() => false), late])) send('SIGKILL');
      clearTimeout(timer);
      await exited;
      send('SIGKILL'); // anything of its group still running (an ffmpeg a graceful stop left behind)
    },
  };
}

/** Polls the process's readiness endpoint (database and storage answer) until 200; fails if the process exits. */
async function ready(proc: ClusterProcess): Promise<void> {
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (!proc.alive()) throw new Error(`${proc.name} exited before it was ready:\n${proc.log()}`);
    const status = await fetch(`${proc.url}/health/ready`).then(
      async (r) => {
        await r.arrayBuffer(); // read to the end: no connection left open
        return r.status;
      },
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${proc.name} was not ready (last status ${status}):\n${proc.log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
