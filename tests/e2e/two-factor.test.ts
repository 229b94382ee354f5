import type { Page } from 'playwright-core';
import { generate } from 'otplib';
import { signInAs } from '../helpers/browser';
import { addOperator, addPlainUser, foundationPanel } from './foundation-panel';

/**
 * Issue 23: two-factor enrolment and sign-in with a code in the browser, the audit log read by an admin, and an
 * admin requiring two-factor sign-in while a user without it is signed in.
 */
describe('two-factor sign-in and the audit log in the browser', () => {
  const panel = foundationPanel({
    setUp: async (server) => {
      await addOperator(server);
      await addPlainUser(server, 'newcomer', 'user-pass');
    },
  });
  const pages: Page[] = [];
  const newPage = async () => {
    const page = await (await panel.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    pages.push(page);
    return page;
  };
  afterAll(async () => {
    for (const p of pages) await p.context().close();
  });
  const codeOf = (secret: string, ahead = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + ahead * 30 });
  let secret = '';

  it('enrols in Settings: QR code and secret, a code confirms, ten recovery codes shown once', async () => {
    const page = await newPage();
    await signInAs(page, panel.server.url, 'operator', 'user-pass');
    await page.goto(`${panel.server.url}/setting`);
    const card = page.locator('[data-two-factor]');
    await card.getByRole('button', { name: 'Увімкнути' }).click();
    const qr = card.getByRole('img', { name: 'QR-код для застосунку-автентифікатора' });
    await qr.waitFor();
    // Changed one's mind: Cancel goes back, nothing turned on.
    await card.getByRole('button', { name: 'Скасувати' }).click();
    await qr.waitFor({ state: 'detached' });
    await card.getByText('Двофакторний вхід вимкнено', { exact: false }).waitFor();
    await card.getByRole('button', { name: 'Увімкнути' }).click();
    await qr.waitFor();
    secret = (await card.locator('[data-secret]').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await card.getByLabel('Код').fill('000000' === (await codeOf(secret)) ? '111111' : '000000');
    await card.getByRole('button', { name: 'Підтвердити' }).click();
    await card.getByText('Неправильний код').waitFor();
    await card.getByLabel('Код').fill(await codeOf(secret));
    await card.getByRole('button', { name: 'Підтвердити' }).click();
    await expect.poll(() => card.locator('[data-recovery-codes] li').count()).toBe(10);
    await card.getByRole('button', { name: 'Я зберіг коди' }).click();
    await card.getByText('Невикористаних резервних кодів: 10').waitFor();
  });

  it('signing in asks for the code after the password', async () => {
    const page = await newPage();
    await page.goto(`${panel.server.url}/login`);
    await page.getByLabel('Логін').fill('operator');
    await page.getByLabel('Пароль').fill('user-pass');
    await page.getByRole('button', { name: 'Увійти' }).click();
    await page.getByText('Код підтвердження').waitFor();
    await page
      .getByRole('textbox', { name: 'Код', exact: true })
      .fill('999999' === (await codeOf(secret, 1)) ? '888888' : '999999');
    await page.getByRole('button', { name: 'Підтвердити' }).click();
    await page.getByText('Неправильний код').first().waitFor();
    await page.getByRole('textbox', { name: 'Код', exact: true }).fill(await codeOf(secret, 1));
    await page.getByRole('button', { name: 'Підтвердити' }).click();
    await page.getByRole('navigation', { name: 'main menu' }).waitFor();
  });

  it('an admin reads the audit log: the sign-ins, the failed code and the enrolment, filtered by action', async () => {
    const page = await newPage();
    await signInAs(page, panel.server.url, 'admin', 'admin-pass');
    await page.getByRole('navigation', { name: 'main menu' }).getByText('Журнал дій').click();
    await page.locator('header').getByText('Журнал дій').waitFor();
    const table = page.locator('table');
    await table.getByText('2FA увімкнено').waitFor();
    await table.getByText('Неправильний код 2FA').waitFor();
    expect(await table.getByText('operator').count()).toBeGreaterThanOrEqual(3);
    await page.getByLabel('Дія').click();
    await page.getByRole('option', { name: '2FA увімкнено' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Експорт CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-.*\.csv$/);
  });

  it('a user has no audit log', async () => {
    const page = await newPage();
    const r = await page.request.get(`${panel.server.url}/api/audit`);
    expect(r.status()).toBe(401);
  });

  /** Sets the policy as the admin does (straight in the database: the admin has no 2FA and is not signed in here). */
  const require = async (required: boolean) => {
    await panel.server.tdb.db
      .insertInto('settings')
      .values({ key: 'auth.require_two_factor', value: String(required) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(required) }))
      .execute();
  };

  it('required while signed in: the next call leads to Settings, only enrolment; enrolling opens the panel', async () => {
    const page = await newPage();
    await signInAs(page, panel.server.url, 'newcomer', 'user-pass');
    await require(true);
    await page.goto(`${panel.server.url}/tags`);
    await page.waitForURL(`${panel.server.url}/setting`);
    const card = page.locator('[data-two-factor]');
    await card.getByText('Адміністратор вимагає двофакторний вхід. Увімкніть його, щоб продовжити роботу.').waitFor();
    // Only enrolment (and the language): no password form, no keys, no webhooks.
    expect(await page.getByTestId('api-keys').count()).toBe(0);
    expect(await page.getByTestId('webhooks').count()).toBe(0);
    expect(await page.getByText('Змінити пароль').count()).toBe(0);

    await card.getByRole('button', { name: 'Увімкнути' }).click();
    const secret = (await card.locator('[data-secret]').innerText()).trim();
    await card.getByLabel('Код').fill(await codeOf(secret));
    await card.getByRole('button', { name: 'Підтвердити' }).click();
    await card.getByRole('button', { name: 'Я зберіг коди' }).click();
    await page.getByTestId('api-keys').waitFor();
    await page.goto(`${panel.server.url}/tags`);
    await page.waitForURL(`${panel.server.url}/tags`);
    expect(page.url()).toBe(`${panel.server.url}/tags`);
    await require(false);
  });
});
