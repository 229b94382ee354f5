import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hashPassword } from '../../server/auth/password';
import { startSimulators, type Simulators } from '../../sim/platforms/index';
import { launchBrowser, signInAs } from '../helpers/browser';
import type { DbKind } from '../../server/db/index';
import { describeOnEachDb } from '../helpers/browser-dbs';
import { startTestServer, type TestServer } from '../helpers/server';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';

/** Profiles in Chromium, as an admin and as a user, with the YouTube, TikTok and Instagram authorizations clicked through the simulators. */
let srv: TestServer;
let sims: Simulators;
let proxy: LocalProxy;
let browser: Browser;

/** The server (on `kind`'s database) and the browser for one run of the flows below. */
function serverAndBrowser(kind: DbKind) {
  beforeAll(async () => {
    sims = await startSimulators();
    proxy = await startLocalProxy();
    // The local proxy listens on 127.0.0.1; redirect URIs point back at this server (its PUBLIC_URL).
    srv = await startTestServer({ ...sims.env, ALLOW_PRIVATE_PROXIES: 'true' }, {}, kind);
    const at = new Date().toISOString();
    await srv.tdb.db
      .insertInto('users')
      .values({
        login: 'olena',
        passwordHash: await hashPassword('olena-pass'),
        role: 'user',
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
    await sims?.close();
    await proxy?.close();
  });
}

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
  return { context, page: await context.newPage() };
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

// These flows write: they run on SQLite and on PostgreSQL.
describeOnEachDb('profiles in the browser', (kind) => {
  serverAndBrowser(kind);

  let adminAccountId: number;

  it('admin: empty list, validation, create, save, connect YouTube via the link, change the description', async () => {
    const { context, page } = await newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
    await page.goto(`${srv.url}/accounts/list`);
    await page.getByText('Профілів ще немає').waitFor();
    await page
      .getByRole('link', { name: /Створити/ })
      .first()
      .click();
    await page.waitForURL(/\/accounts\/create$/);

    await page.getByRole('switch', { name: 'YouTube', exact: true }).check();
    await page.getByRole('button', { name: 'Створити' }).click();
    await page.getByText("Проксі обов'язковий").waitFor();
    await page.getByText("client_id обов'язковий").waitFor();
    await page.getByText("client_secret обов'язковий").waitFor();

    await field(page, 'Проксі').fill(proxy.url);
    await field(page, 'Коментар').fill('Адмінський профіль');
    await field(page, 'client_id').fill('e2e-client.apps.googleusercontent.com');
    await field(page, 'client_secret').fill('e2e-client-secret');
    await page.getByRole('button', { name: 'Створити' }).click();
    await page.getByText('Профіль створено').waitFor();
    await page.waitForURL(/\/accounts\/\d+$/);
    adminAccountId = Number(new URL(page.url()).pathname.split('/').pop());

    await field(page, 'Коментар').fill('Адмінський профіль 2');
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page.getByText('Профіль змінено').waitFor();

    // The authorization link: copied to the clipboard, then opened like an operator would.
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/accounts/connect-youtube/${adminAccountId}`)),
      page.getByRole('button', { name: /Посилання для авторизації YouTube/ }).click(),
    ]);
    const { url } = await res.json();
    await page.getByText('Посилання скопійоване в буфер обміну').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await page.goto(url);
    await page.waitForURL(new RegExp(`/accounts/${adminAccountId}`));
    await page.getByText('YouTube підключено').waitFor();
    const panel = page.getByRole('region', { name: 'YouTube канал' });
    await panel.waitFor();
    await expect.poll(() => panel.getByLabel('Назва каналу').inputValue()).toBe(sims.google.channel.title);
    await panel.getByLabel('Опис каналу').fill('');
    await panel.getByRole('button', { name: 'Змінити' }).click();
    await panel.getByText("Опис обов'язковий").waitFor();
    await panel.getByLabel('Опис каналу').fill('Опис з e2e');
    await panel.getByRole('button', { name: 'Змінити' }).click();
    await page.getByText('Опис змінено').waitFor();
    expect(sims.google.channel.description).toBe('Опис з e2e');
    await page.getByTestId('account-status').getByText('Активний').waitFor();

    await context.close();
  });

  it('admin: connects TikTok and Instagram through their links; the panels show what the platforms returned', async () => {
    const { context, page } = await newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
    await page.goto(`${srv.url}/accounts/${adminAccountId}`);
    await field(page, 'Коментар').waitFor();
    const connect = async (platform: 'TikTok' | 'Instagram', path: string) => {
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes(path)),
        page.getByRole('button', { name: `Посилання для авторизації ${platform}` }).click(),
      ]);
      const { url } = await res.json();
      await page.getByText('Посилання скопійоване в буфер обміну').first().waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      await page.goto(url); // the simulator consents at once and sends the browser back to the profile
      await page.waitForURL(new RegExp(`/accounts/${adminAccountId}`));
      await page.getByText(`${platform} підключено`).waitFor();
    };

    // TikTok: no credentials of its own on the profile (the app's client key is the server's).
    await page.getByRole('switch', { name: 'TikTok', exact: true }).check();
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page.getByText('Профіль змінено').waitFor();
    await connect('TikTok', `/api/tiktok/authorize/${adminAccountId}`);
    const tiktok = page.getByRole('region', { name: 'TikTok профіль' });
    await expect.poll(() => tiktok.getByLabel('Імʼя').inputValue()).toBe(sims.tiktok.user.display_name);
    expect(await tiktok.getByLabel('Опис').inputValue()).toBe(sims.tiktok.user.bio_description);

    // Instagram: the spec's login and password are required before saving.
    await page.getByRole('switch', { name: 'Instagram', exact: true }).check();
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page.getByText("Логін Instagram обов'язкові").waitFor();
    await field(page, 'Логін Instagram').fill('kadr.sim');
    await field(page, 'Пароль Instagram').fill('ig-secret-pass');
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page.getByText('Профіль змінено').waitFor();
    await connect('Instagram', `/api/instagram/authorize/${adminAccountId}`);
    const instagram = page.getByRole('region', { name: 'Instagram профіль' });
    await expect.poll(() => instagram.getByLabel('Назва').inputValue()).toBe(sims.instagram.profile.name);
    // Both stay connected after a reload (green ticks come from the server's state).
    await page.reload();
    await page.getByRole('region', { name: 'TikTok профіль' }).waitFor();
    await page.getByRole('region', { name: 'Instagram профіль' }).waitFor();
    await context.close();
  });

  it('a browser that refuses to copy shows the link to copy by hand; a damaged link lands on the list saying why', async () => {
    const context = await browser.newContext(); // plain HTTP on a LAN address: no Clipboard API, no copy command
    await context.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
      document.execCommand = () => false;
    });
    const page = await context.newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
    await page.goto(`${srv.url}/accounts/${adminAccountId}`);
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/accounts/connect-youtube/${adminAccountId}`)),
      page.getByRole('button', { name: /Посилання для авторизації YouTube/ }).click(),
    ]);
    const { url } = await res.json();
    await page.getByText('Помилка при копіюванні посилання').waitFor();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('скопіюйте його вручну').waitFor();
    expect(await dialog.getByRole('textbox').inputValue()).toBe(url);
    await dialog.getByRole('button', { name: 'Закрити' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.goto(`${srv.url}/api/oauth/youtube/callback?code=x&state=damaged`);
    await page.waitForURL(/\/accounts\/list$/);
    await page.getByText('Посилання авторизації пошкоджене або застаріле. Згенеруйте нове посилання.').waitFor();
    await context.close();
  });

  it('user: sees only own profiles, cannot open another one, deletes own with the toast', async () => {
    const { context, page } = await newPage();
    await signInAs(page, srv.url, 'olena', 'olena-pass');
    await page.goto(`${srv.url}/accounts/create`);
    await field(page, 'Проксі').fill('not-a-proxy');
    await page.getByRole('button', { name: 'Створити' }).click();
    await page.getByText('Проксі має бути адресою http://, https:// або socks5://').waitFor();
    await field(page, 'Проксі').fill('socks5://10.1.1.1:1080');
    await field(page, 'Коментар').fill('Профіль Олени');
    await page.getByRole('button', { name: 'Створити' }).click();
    await page.getByText('Профіль створено').waitFor();

    await page.goto(`${srv.url}/accounts`);
    await page.getByText('Профіль Олени').waitFor();
    expect(await page.getByText('Адмінський профіль').count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Користувач' }).count()).toBe(0);

    await page.goto(`${srv.url}/accounts/${adminAccountId}`);
    // The server answers 404 for another user's profile, as for one that does not exist: the not-found screen.
    await page.getByTestId('record-not-found').getByRole('heading', { name: 'Не знайдено' }).waitFor();
    await page.getByText('Такого запису немає, або він належить іншому користувачу.').waitFor();
    expect(await page.getByText('Адмінський профіль').count()).toBe(0);

    await page.goto(`${srv.url}/accounts/list`);
    await page
      .getByRole('button', { name: /Видалити|Delete/ })
      .first()
      .click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Підтвердити|Confirm|Так/ })
      .click();
    await page.getByText('Акаунт видалено').waitFor();
    await page.getByText('Профілів ще немає').waitFor();
    await context.close();
  });

  it('admin sees every profile with its owner', async () => {
    const { context, page } = await newPage();
    await signInAs(page, srv.url, 'admin', 'admin-pass');
    await page.goto(`${srv.url}/accounts`);
    await page.getByRole('columnheader', { name: 'Користувач' }).waitFor();
    await page.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    await context.close();
  });
});
