// `npm run db:move -- --to postgres://…`: moves this embedded installation's rows (DATA_DIR/kadr.sqlite) to an
// empty PostgreSQL database (server/maintenance/db-move.ts; the cut-over: docs/backup.md). Stop Kadr first:
// rows written after the move starts are not moved. The SQLite file is only read.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { DbMoveError, moveDatabase } from '../server/maintenance/db-move';

const { values: args } = parseArgs({ options: { to: { type: 'string' }, batch: { type: 'string', default: '1000' } } });
const batch = Number(args.batch);
if (!args.to || !/^postgres(ql)?:\/\//.test(args.to)) {
  console.error('--to: the PostgreSQL database to move to, as postgres://user:password@host:port/database');
  process.exit(2);
}
if (!Number.isInteger(batch) || batch < 1 || batch > 10_000) {
  console.error('--batch: a whole number of rows from 1 to 10000');
  process.exit(2);
}
const config = loadConfig();
if (config.databaseUrl) {
  console.error(
    'DATABASE_URL is set: this installation is on PostgreSQL already (unset it to move DATA_DIR/kadr.sqlite)',
  );
  process.exit(2);
}
if (!existsSync(config.sqliteFile)) {
  console.error(`${config.sqliteFile}: no such file (DATA_DIR points at the installation)`);
  process.exit(2);
}
// The target's password never reaches the terminal.
const shown = args.to.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:…@');

try {
  const report = await moveDatabase({
    sqliteFile: config.sqliteFile,
    databaseUrl: args.to,
    batchRows: batch,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const rows = report.tables.reduce((n, t) => n + t.rows, 0);
  process.stdout.write(
    `\nMoved ${rows} rows in ${report.tables.length} tables to ${shown} (at ${report.version}); row counts match.\n` +
      `${config.sqliteFile} is untouched. Start Kadr with\n` +
      `  DATABASE_URL=${shown}\n` +
      `  APP_KEY=<the contents of ${config.dataDir}/app.key> (or the APP_KEY you set): the sealed secrets open with it\n` +
      `  JWT_SECRET=<the contents of ${config.dataDir}/jwt.secret> (or the JWT_SECRET you set)\n`,
  );
} catch (err) {
  console.error(err instanceof DbMoveError ? `db:move: ${err.message}` : err);
  process.exit(1);
}
