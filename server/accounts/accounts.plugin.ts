import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/index';
import { createSealer, ensureSealKey } from '../crypto/seal';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { accountsRoutes } from './accounts.routes';

/**
 * Wires profiles: refuses to start when APP_KEY differs from the key this database was sealed with,
 * then registers the routes. Other domains that store secrets use `createSealer(config.appKey)` from server/crypto/seal.ts.
 */
export async function accountsPlugin(app: FastifyInstance, { config, db }: { config: Config; db: Db }) {
  const sealer = createSealer(config.appKey);
  await ensureSealKey(db, sealer);
  await accountsRoutes(app, { accounts: new AccountsService(new AccountsRepository(db), sealer, config) });
}
