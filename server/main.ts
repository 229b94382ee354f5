import { loadConfig } from './config';
import { createDb, migrateToLatest } from './db/index';
import { buildAiApp, buildApp } from './app';
import { ensureFirstAdmin } from './users/first-admin';
import { startWorkers } from './workers';

/**
 * Process entry: config → database → app (which builds the composition root, server/container.ts) → workers
 * from that root → listen; stops cleanly on SIGINT/SIGTERM.
 */
async function main() {
  const config = loadConfig();
  const { db, kind } = createDb(config);
  await migrateToLatest(db);
  const created = await ensureFirstAdmin(db, config.admin);
  const app = await buildApp({ config, db, dbKind: kind });
  if (created?.generatedPassword) {
    // Printed once to the terminal on purpose (not through the logger) so the first admin can sign in.
    process.stdout.write(
      `\nFirst admin created: login "${created.login}", password "${created.generatedPassword}"\n\n`,
    );
  }
  // WORKERS=on: the job runner (renders) in this process; WORKERS=off for API-only processes.
  const workers = config.runWorkers ? await startWorkers(app.root) : undefined;
  // AI_PORT: the AI service on a port of its own (same root: database, tokens, drivers); else it is on the API's.
  const aiApp = config.ai.port !== undefined ? await buildAiApp(app.root) : undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    try {
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
  await app.listen({ host: config.host, port: config.port });
  if (aiApp) app.log.info(`AI service on ${await aiApp.listen({ host: config.host, port: config.ai.port })}`);
  app.log.info(`Kadr is up on ${config.publicUrl} (${kind})`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
