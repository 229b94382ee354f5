import type { Page } from 'playwright-core';
import { hashPassword } from '../../server/auth/password';
import { signInAs } from '../helpers/browser';
import { formatUtc } from '../../src/common/formatUtc';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { foundationPanel } from './foundation-panel';

const BULK = 64; // + the admin and the operator: 66 users, 7 pages of 10

// Every flow here writes (or reads what the others wrote): on SQLite and on PostgreSQL.
describeOnEachDb('foundation in the browser: users', (kind) => {
  const panel = foundationPanel({
    kind,
    setUp: async (srv) => {
      const at = new Date().toISOString();
      const hash = await hashPassword('user-pass');
      await srv.tdb.db
        .insertInto('users')
        .values({ login: 'operator', passwordHash: hash, role: 'user', createdAt: at, updatedAt: at })
        .execute();
      const many = Array.from({ length: BULK }, (_, i) => ({
        login: `bulk${String(i).padStart(2, '0')}`,
        passwordHash: hash,
        role: 'user' as const,
        createdAt: at,
        updatedAt: at,
      }));
      await srv.tdb.db.insertInto('users').values(many).execute();
    },
  });
  let page: Page;
  beforeEach(async () => {
    page = await (await panel.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
  });
  afterEach(async () => {
    await page.context().close();
  });

  const idOf = async (login: string) =>
    (await panel.server.tdb.db.selectFrom('users').select('id').where('login', '=', login).executeTakeFirstOrThrow())
      .id;
  /** The logins the server should show on page n (10 a page, by id). */
  const loginsOn = async (n: number) =>
    (
      await panel.server.tdb.db
        .selectFrom('users')
        .select('login')
        .orderBy('id')
        .limit(10)
        .offset((n - 1) * 10)
        .execute()
    ).map((r) => r.login);
  const field = (source: string) => page.locator(`.ra-input-${source}`);
  const save = () => page.getByRole('button', { name: 'Зберегти' }).click();
  const apiLogin = (login: string, password: string) =>
    fetch(`${panel.server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password }),
    });

  // Read-only flows run on SQLite only (the writing ones on both keep the suite's time in bounds).
  const readOnly = it.runIf(kind === 'sqlite');

  readOnly('list: "Користувачі", columns, the Admin mark, counts; a row opens /users/{id}', async () => {
    await page.getByRole('navigation', { name: 'main menu' }).getByText('Користувачі').click();
    await page.waitForURL((u) => u.pathname === '/users');
    await page.locator('header').getByText('Користувачі').waitFor();
    // The title shows before the list has loaded: wait for the grid's header row.
    await expect
      .poll(async () => (await page.getByRole('columnheader').allInnerTexts()).map((t) => t.trim()).slice(0, 4))
      .toEqual(['ID', 'Логін', 'Відео', 'Профілі']);
    const adminRow = page.getByRole('row').filter({ hasText: 'admin' }).first();
    await adminRow.getByText('Admin', { exact: true }).waitFor();
    expect(
      await page.getByRole('row').filter({ hasText: 'operator' }).getByText('Admin', { exact: true }).count(),
    ).toBe(0);
    expect((await adminRow.innerText()).replace(/\s+/g, ' ')).toContain('1 admin Admin 0 0');
    await page.getByRole('cell', { name: 'operator' }).click();
    await page.waitForURL(`${panel.server.url}/users/${await idOf('operator')}`);
    await page
      .getByText(`User #${await idOf('operator')}`)
      .first()
      .waitFor();
    await page.getByText('Профілі користувача').waitFor();
    await page.getByText('Відео користувача').waitFor();
  });

  it('create: required, too short, mismatch, a taken login beside the field, then "Користувача створено"', async () => {
    await page.goto(`${panel.server.url}/users`);
    await page.getByRole('link', { name: 'Створити' }).click();
    await page.waitForURL(/\/users\/create$/);
    await page.locator('header').getByText('Create user').waitFor();
    await save(); // an empty form: Save says what is missing
    await expect.poll(() => page.getByText('Обовʼязкове до заповнення').count()).toBe(3);
    await page.getByLabel('Логін').fill('n');
    await page.getByLabel('Новий пароль').fill('12345');
    await page.getByLabel('Повторіть пароль').fill('12345');
    await save();
    await field('login').getByText('Занадто коротко!').waitFor();
    await field('password').getByText('Занадто коротко!').waitFor();
    await page.getByLabel('Логін').fill('newbie');
    await page.getByLabel('Новий пароль').fill('secret-1');
    await page.getByLabel('Повторіть пароль').fill('secret-2');
    await save();
    await field('repeatPassword').getByText('Паролі не збігаються').waitFor();
    // The server's refusal appears beside the login field.
    await page.getByLabel('Логін').fill('operator');
    await page.getByLabel('Повторіть пароль').fill('secret-1');
    await save();
    await field('login').getByText('Такий логін уже існує').waitFor();
    await page.getByLabel('Логін').fill('newbie');
    await save();
    await page.getByRole('status').getByText('Користувача створено').waitFor();
    await page.waitForURL((u) => u.pathname === '/users');
    expect((await apiLogin('newbie', 'secret-1')).status).toBe(200);
  });

  it('edit: renaming needs no password (empty keeps it), a taken login is refused beside the field, then "Користувача змінено"', async () => {
    const id = await idOf('bulk05');
    await page.goto(`${panel.server.url}/users/${id}`); // a deep link while signed in
    await page.getByText(`User #${id}`).first().waitFor();
    await expect.poll(() => page.getByLabel('Логін').inputValue()).toBe('bulk05');
    // Issue 18: the password fields may stay empty; the password does not change.
    await field('password').getByText('Залиште порожнім, щоб не змінювати пароль').waitFor();
    await page.getByLabel('Логін').fill('bulk05-renamed');
    await save();
    await page.getByRole('status').getByText('Користувача змінено').waitFor();
    expect((await apiLogin('bulk05-renamed', 'user-pass')).status).toBe(200);
    // A new password is checked as on create.
    await page.getByLabel('Новий пароль').fill('secret-9');
    await page.getByLabel('Повторіть пароль').fill('secret-8');
    await save();
    await field('repeatPassword').getByText('Паролі не збігаються').waitFor();
    await page.getByLabel('Повторіть пароль').fill('secret-9');
    await page.getByLabel('Логін').fill('operator');
    await save();
    await field('login').getByText('Такий логін уже існує').waitFor();
    await page.getByLabel('Логін').fill('bulk05-renamed');
    await save();
    await expect.poll(() => apiLogin('bulk05-renamed', 'secret-9').then((r) => r.status)).toBe(200);
    // The page reloads with the saved login and stays on the record.
    await page.reload();
    await expect.poll(() => page.getByLabel('Логін').inputValue()).toBe('bulk05-renamed');
  });

  it('delete: from the list and from the form, "Користувача видалено"; deleting yourself is refused with the reason', async () => {
    await page.goto(`${panel.server.url}/users?page=2`);
    const row = page.getByRole('row').filter({ hasText: 'bulk10' });
    await row.getByRole('button', { name: 'Видалити' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Підтвердити' }).click();
    await page.getByRole('status').getByText('Користувача видалено').waitFor();
    await row.waitFor({ state: 'detached' });
    expect(
      await panel.server.tdb.db.selectFrom('users').select('id').where('login', '=', 'bulk10').executeTakeFirst(),
    ).toBeUndefined();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');

    const id = await idOf('bulk11');
    await page.goto(`${panel.server.url}/users/${id}`);
    await page.getByText(`User #${id}`).first().waitFor();
    await page.getByRole('button', { name: 'Видалити' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Підтвердити' }).click();
    await page.getByRole('status').getByText('Користувача видалено').waitFor();
    await page.waitForURL((u) => u.pathname === '/users');
    expect(
      await panel.server.tdb.db.selectFrom('users').select('id').where('login', '=', 'bulk11').executeTakeFirst(),
    ).toBeUndefined();

    // Issue 18: the signed-in admin's own row offers no delete (the server refuses it anyway).
    const own = page.getByRole('row').filter({ has: page.getByText('admin', { exact: true }) });
    await own.first().waitFor();
    expect(await own.first().getByRole('button', { name: 'Видалити' }).count()).toBe(0);
  });

  readOnly(
    'pagination: first and last, a window of two, ellipsis jumps to the midpoint, ?page=n survives a reload, hidden at one page',
    async () => {
      const total = Number(
        (
          await panel.server.tdb.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('c'))
            .executeTakeFirstOrThrow()
        ).c,
      );
      const pages = Math.ceil(total / 10);
      expect(pages).toBe(7);
      await page.goto(`${panel.server.url}/users`);
      const pager = page.getByRole('navigation', { name: 'pagination' });
      const labels = async () => (await pager.getByRole('button').allInnerTexts()).map((t) => t.trim());
      await expect.poll(labels).toEqual(['1', '2', '3', '…', '7']);
      expect(await pager.getByRole('button', { name: '1', exact: true }).getAttribute('aria-current')).toBe('page');
      // The ellipsis jumps to the midpoint of the hidden pages (4..6 → 5).
      await pager.getByRole('button', { name: '…' }).click();
      await page.waitForURL(/[?&]page=5/);
      await expect.poll(labels).toEqual(['1', '2', '3', '4', '5', '6', '7']);
      await pager.getByRole('button', { name: '7' }).click();
      await page.waitForURL(/[?&]page=7/);
      await expect.poll(labels).toEqual(['1', '…', '5', '6', '7']);
      await expect.poll(async () => (await page.getByRole('row').count()) - 1).toBe(total - 60);
      await pager.getByRole('button', { name: '…' }).click(); // 2..4 → 3
      await page.waitForURL(/[?&]page=3/);
      const third = await loginsOn(3);
      await page.getByRole('cell', { name: third[0], exact: true }).waitFor();
      await page.reload();
      await page.getByRole('cell', { name: third[9], exact: true }).waitFor();
      expect(await page.getByRole('cell', { name: (await loginsOn(2))[9], exact: true }).count()).toBe(0);
      expect(await pager.getByRole('button', { name: '3', exact: true }).getAttribute('aria-current')).toBe('page');
      // Opening ?page=n directly.
      await page.goto(`${panel.server.url}/users?page=6`);
      await page.getByRole('cell', { name: (await loginsOn(6))[4], exact: true }).waitFor();
      await expect.poll(labels).toEqual(['1', '…', '4', '5', '6', '7']);
      await pager.getByRole('button', { name: '1', exact: true }).click();
      await page.getByRole('cell', { name: 'operator' }).waitFor();
      // A user with no profiles or videos: their lists say so and show no pager.
      await page.goto(`${panel.server.url}/users/${await idOf('operator')}`);
      await page.getByText('Профілі користувача').waitFor();
      await expect.poll(() => page.getByText('Нічого не знайдено').count()).toBe(2);
      expect(await pager.count()).toBe(0);
    },
  );

  it("user page: the user's profiles and videos with their data, the videos paged in place; a row opens the profile", async () => {
    const at = (d: number) => `2024-03-${String(d).padStart(2, '0')}T10:20:30.000Z`;
    const db = panel.server.tdb.db;
    const owner = (
      await db
        .insertInto('users')
        .values({
          login: 'owner',
          passwordHash: await hashPassword('owner-pass'),
          role: 'user',
          createdAt: at(1),
          updatedAt: at(1),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const accounts: number[] = [];
    for (const [i, a] of [
      { titleChannel: 'Канал Альфа' },
      { profileNameInstagram: 'insta_beta' },
      { comments: 'Коментар гамма' },
    ].entries()) {
      accounts.push(
        (
          await db
            .insertInto('accounts')
            .values({ userId: owner, createdAt: at(2 + i), ...a })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    }
    // 12 videos: 10 on the first page (newest first), 2 on the second; every third one without a profile.
    const videos: Array<{ id: number; accountId: number | null; status: string; createdAt: string }> = [];
    for (let i = 0; i < 12; i++) {
      const v = {
        userId: owner,
        accountId: i % 3 === 2 ? null : accounts[i % 3]!,
        status: i % 2 ? 'error' : 'success',
        createdAt: at(10 + i),
      };
      videos.push({ ...v, id: (await db.insertInto('videos').values(v).returning('id').executeTakeFirstOrThrow()).id });
    }
    const newest = [...videos].reverse();
    await page.goto(`${panel.server.url}/users/${owner}`);
    await expect.poll(() => page.getByLabel('Логін').inputValue()).toBe('owner');
    const [profiles, videoTable] = [page.getByRole('table').nth(0), page.getByRole('table').nth(1)];
    const rowTexts = async (table: typeof profiles) =>
      (await table.locator('tbody tr').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    await expect
      .poll(() => rowTexts(profiles))
      .toEqual([
        // Issue 18: each profile by its comment, id and platform names.
        `${accounts[2]} Коментар гамма #${accounts[2]} ${formatUtc(at(4))}`,
        `${accounts[1]} #${accounts[1]} insta_beta ${formatUtc(at(3))}`,
        `${accounts[0]} #${accounts[0]} Канал Альфа ${formatUtc(at(2))}`,
      ]);
    const videoRow = (v: (typeof videos)[number]) =>
      `${v.id} ${v.accountId ? `#${v.accountId} ` : ''}${formatUtc(v.createdAt)} ${v.status === 'success' ? 'Опубліковано' : 'Помилка'}`;
    await expect.poll(() => rowTexts(videoTable)).toEqual(newest.slice(0, 10).map(videoRow));
    // Only the videos need a second page: one pager, under the videos.
    const pager = page.getByRole('navigation', { name: 'pagination' });
    await expect.poll(() => pager.getByRole('button').allInnerTexts()).toEqual(['1', '2']);
    await pager.getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => rowTexts(videoTable)).toEqual(newest.slice(10).map(videoRow));
    expect(new URL(page.url()).pathname).toBe(`/users/${owner}`);
    expect(await rowTexts(profiles)).toHaveLength(3);
    // A video's profile link and a profile row open that profile.
    const linked = newest.slice(10).find((v) => v.accountId)!;
    await videoTable.getByRole('link', { name: `#${linked.accountId}` }).click();
    await page.waitForURL((u) => u.pathname === `/accounts/${linked.accountId}`);
    await page.goBack();
    await profiles.getByRole('cell', { name: 'insta_beta' }).click();
    await page.waitForURL((u) => u.pathname === `/accounts/${accounts[1]}`);
  });
});
