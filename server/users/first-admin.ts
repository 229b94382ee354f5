import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index';
import { hashPassword } from '../auth/password';

/**
 * Creates the first admin when there is no user yet: ADMIN_LOGIN / ADMIN_PASSWORD, or login `admin`
 * with a random password that is returned once so main.ts can print it (never logged otherwise).
 */
export async function ensureFirstAdmin(
  db: Db,
  admin: { login: string; password?: string },
): Promise<{ login: string; generatedPassword?: string } | null> {
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const generatedPassword = admin.password ? undefined : randomBytes(9).toString('base64url');
  const at = new Date().toISOString();
  // Processes started together on a new shared database all find no user: one creates the admin, the others
  // find the login taken and go on (a unique-key error here would stop their start).
  const created = await db
    .insertInto('users')
    .values({
      login: admin.login,
      passwordHash: await hashPassword(admin.password ?? generatedPassword!),
      role: 'admin',
      createdAt: at,
      updatedAt: at,
    })
    .onConflict((oc) => oc.column('login').doNothing())
    .returning('id')
    .executeTakeFirst();
  return created ? { login: admin.login, generatedPassword } : null;
}
