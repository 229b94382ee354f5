import { loadConfig } from './config';
import { createDb, migrateToLatest } from './db/index';
import { buildAiApp, buildApp, buildHealthApp } from './app';
import { ensureFirstAdmin } from './users/first-admin';
import { startWorkers, workerPlan } from './workers';

/**
 * Process entry: config → database → app (which builds the composition root, server/container.ts) → workers
 * from that root → listen; stops cleanly on SIGINT/SIGTERM. PROCESS_ROLE decides the shape: `all` listens on
 * PORT and runs the job runner (the embedded default); `api` listens on PORT without a runner; `worker` runs the
 * runner and listens only on HEALTH_PORT for /health/live and /health/ready.
 */
async function main() {
  const config = loadConfig();
  const { role } = config;
  const { db, kind } = createDb(config);
  await migrateToLatest(db);
  const created = await ensureFirstAdmin(db, config.admin);
  const app = await buildApp({ config, db, dbKind: kind });
  // A wrong WORKER_KINDS / WORKER_CONCURRENCY stops the start before anything listens or runs.
  const plan = role === 'api' ? undefined : workerPlan(app.root);
  if (created?.generatedPassword) {
    // Printed once to the terminal on purpose (not through the logger) so the first admin can sign in.
    process.stdout.write(
      `\nFirst admin created: login "${created.login}", password "${created.generatedPassword}"\n\n`,
    );
  }
  const workers = plan ? await startWorkers(app.root, { plan }) : undefined;
  const health = role === 'worker' ? await buildHealthApp(app.root) : undefined;
  // AI_PORT: the AI service on a port of its own (same root: database, tokens, drivers); else it is on the API's.
  const aiApp = role !== 'worker' && config.ai.port !== undefined ? await buildAiApp(app.root) : undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      await health?.close();
      await app.close();
      await aiApp?.close();
      await workers?.stop(); // running jobs are aborted and given back to the queue, not counted as attempts
      await db.destroy();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  const kinds = plan ? Object.entries(plan.limits).map(([k, n]) => `${k}=${n}`) : [];
  if (health) {
    const at = await health.listen({ host: config.host, port: config.healthPort });
    app.log.info(`Kadr worker is up (${kind}), health on ${at}; runs ${kinds.join(', ')}`);
    return;
  }
  await app.listen({ host: config.host, port: config.port });
  if (aiApp) app.log.info(`AI service on ${await aiApp.listen({ host: config.host, port: config.ai.port })}`);
  app.log.info(`Kadr is up on ${config.publicUrl} (${kind}, role ${role}${plan ? `; runs ${kinds.join(', ')}` : ''})`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
