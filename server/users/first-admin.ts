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
  await db
    .insertInto('users')
    .values({
      login: admin.login,
      passwordHash: await hashPassword(admin.password ?? generatedPassword!),
      role: 'admin',
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  return { login: admin.login, generatedPassword };
}
