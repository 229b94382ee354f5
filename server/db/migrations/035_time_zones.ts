import type { Kysely } from 'kysely';

/**
 * 035 (issue 21 item 2): each profile has an IANA time zone (`accounts.time_zone`); its dates are shown and
 * entered in it, stored as UTC instants as before. NULL (profiles made before) is planned in UTC, and the panel
 * names the zone wherever it shows one of its dates.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('time_zone', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('time_zone').execute();
}
