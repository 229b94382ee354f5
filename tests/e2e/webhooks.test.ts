import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { webhookDeliverJob } from '../../server/webhooks/webhooks.jobs';
import { formatUtc } from '../../src/common/formatUtc';
import { signInAs } from '../helpers/browser';
import { postEvent, recordEvents } from '../helpers/events';
import { addOperator, foundationPanel } from './foundation-panel';
import { userByLogin } from '../helpers/db';

type Received = { headers: IncomingHttpHeaders; body: string; path: string };

/** A local receiver the test starts: records every request and answers 200 `thanks`. */
async function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body, path: req.url ?? '' });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Checks a delivery as a receiver does, with the standardwebhooks package: throws unless signed with `secret`. */
const verified = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; data: Record<string, unknown> };

/** The `webhook-signature` header's signatures, in their order. */
const signaturesOf = (r: Received) => String(r.headers['webhook-signature']).split(' ');

/**
 * Issue 23: a webhook made in Settings, its test and a real event received signed by a local listener, both
 * logged; its secret rotated, the new one shown once and signing what the listener receives next.
 */
describe('in the browser: a webhook delivers signed messages to a local listener', () => {
  // A listener on loopback: private addresses are allowed here as in development (the SSRF guard stays on otherwise).
  const panel = foundationPanel({ setUp: addOperator, env: { ALLOW_PRIVATE_WEBHOOKS: 'true' } });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let page: Page;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.stop());
  beforeEach(async () => {
    const context = await panel.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: panel.server.url });
    page = await context.newPage();
  });
  afterEach(async () => {
    await page.context().close();
  });

  /** What the workers do (they are off in browser tests): the bus's events, then the queued deliveries. */
  const runDeliveries = async () => {
    const root = panel.server.app.root;
    await root.events.drain();
    await root.createJobRunner({ catalogue: [webhookDeliverJob] }).drain();
  };

  it('made in Settings (secret shown once), "send test" and a publication event arrive signed and are listed', async () => {
    await signInAs(page, panel.server.url, 'operator', 'user-pass');
    await page.goto(`${panel.server.url}/setting`);
    const card = page.getByTestId('webhooks');
    await card.getByText('Вебхуків ще немає').waitFor();
    await card.getByLabel('URL').fill(`${receiver.url}/kadr`);
    await card.getByLabel('Публікацію опубліковано').check();
    await card.getByRole('button', { name: 'Додати вебхук' }).click();

    // The signing secret, shown once.
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText('Секрет для перевірки підпису. Скопіюйте його зараз: більше його не буде показано.')
      .waitFor();
    const secret = await dialog.getByTestId('shown-once').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Готово' }).click();
    await dialog.waitFor({ state: 'detached' });
    const hook = card.locator('[data-testid^="webhook-"]').first();
    await hook.getByText(`${receiver.url}/kadr`).waitFor();
    await hook.getByText('Публікація не вдалася, Публікацію опубліковано').waitFor();
    expect(await page.locator('body').innerText()).not.toContain(secret);

    // "Send test": delivered at once, signed; the answer is in the toast and the log opens with it.
    await hook.getByRole('button', { name: 'Надіслати тест' }).click();
    await page.getByText('Тест доставлено (200)').first().waitFor();
    expect(receiver.received).toHaveLength(1);
    const test = receiver.received[0]!;
    expect(test.path).toBe('/kadr');
    expect(verified(secret, test)).toMatchObject({ type: 'webhook.test' });
    // A forged body does not pass the receiver's check.
    expect(() => verified(secret, { ...test, body: test.body.replace('webhook.test', 'post.published') })).toThrow();
    const log = hook.locator('[data-testid^="webhook-log-"]');
    await log.getByText('Тест').waitFor();
    await log.getByText(String(test.headers['webhook-id'])).waitFor();
    await log.getByText('thanks').waitFor();

    // A publication of the operator is published: the event goes through the job queue, signed the same way.
    const operator = await userByLogin(panel.server.tdb.db, 'operator');
    await recordEvents(
      panel.server.app.root,
      postEvent(operator.id, { publishId: 77, videoId: 5, platform: 'youtube', state: 'published' }, 'post.published'),
    );
    await runDeliveries();
    expect(receiver.received).toHaveLength(2);
    const event = receiver.received[1]!;
    expect(verified(secret, event)).toMatchObject({
      type: 'post.published',
      data: { publishId: 77, platform: 'youtube' },
    });
    expect(event.headers['webhook-id']).not.toBe(test.headers['webhook-id']);

    // The panel lists both deliveries with the receiver's answer.
    await page.reload();
    await hook.getByRole('button', { name: 'Журнал доставок' }).click();
    await log.getByText('Публікацію опубліковано').waitFor();
    await log.getByText(String(event.headers['webhook-id'])).waitFor();
    await log.getByText('Тест').waitFor();
    expect(await log.locator('tbody tr').count()).toBe(2);
  });

  it('"rotate secret": confirmed, the new secret shown once to copy, the old one valid until the grace end; the listener checks deliveries with the new one', async () => {
    await signInAs(page, panel.server.url, 'operator', 'user-pass');
    await page.goto(`${panel.server.url}/setting`);
    const card = page.getByTestId('webhooks');
    await card.getByLabel('URL').fill(`${receiver.url}/rotated`);
    await card.getByLabel('Публікацію опубліковано').check();
    await card.getByRole('button', { name: 'Додати вебхук' }).click();
    const dialog = page.getByRole('dialog');
    const old = await dialog.getByTestId('shown-once').inputValue();
    await dialog.getByRole('button', { name: 'Готово' }).click();
    await dialog.waitFor({ state: 'detached' });
    const hook = card.locator('[data-testid^="webhook-"]', { hasText: `${receiver.url}/rotated` });
    await hook.getByText('Старий секрет дійсний до', { exact: false }).waitFor({ state: 'detached' });

    // Asked first; cancelling changes nothing.
    await hook.getByRole('button', { name: 'Замінити секрет' }).click();
    await dialog.getByText(`Створити новий секрет підпису для ${receiver.url}/rotated?`, { exact: false }).waitFor();
    await dialog.getByText('Старий діятиме ще 24 год', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Скасувати' }).click();
    await dialog.waitFor({ state: 'detached' });
    await hook.getByRole('button', { name: 'Замінити секрет' }).click();
    await dialog.getByRole('button', { name: 'Замінити секрет' }).click();

    // The new secret, shown once, with a copy button and the end of the old one's grace period.
    await dialog.getByText('Новий секрет підпису').waitFor();
    await dialog
      .getByText('Новий секрет для перевірки підпису. Скопіюйте його зараз: більше його не буде показано.')
      .waitFor();
    const secret = await dialog.getByTestId('shown-once').inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);
    const row = await panel.server.tdb.db
      .selectFrom('webhooks')
      .select(['id', 'previousSecretUntil'])
      .where('url', '=', `${receiver.url}/rotated`)
      .executeTakeFirstOrThrow();
    const until = formatUtc(Number(row.previousSecretUntil), 'uk');
    await dialog
      .getByText(
        `Старий секрет дійсний до ${until} (UTC): доти кожну доставку підписано обома секретами, а потім — лише новим.`,
      )
      .waitFor();
    await dialog.getByRole('button', { name: 'Копіювати' }).click();
    await page.getByText('Скопійовано').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await dialog.getByRole('button', { name: 'Готово' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The row says until when the old secret holds; the new one is nowhere on the page any more.
    await hook.getByText(`Старий секрет дійсний до ${until} (UTC)`).waitFor();
    expect(await page.locator('body').innerText()).not.toContain(secret);
    await page.reload();
    await hook.getByText(`Старий секрет дійсний до ${until} (UTC)`).waitFor();
    expect(await page.locator('body').innerText()).not.toContain(secret);

    // "Send test": the listener checks it with the new secret (the first signature), as one not yet moved does with the old.
    await hook.getByRole('button', { name: 'Надіслати тест' }).click();
    await page.getByText('Тест доставлено (200)').first().waitFor();
    const test = receiver.received.filter((r) => r.path === '/rotated').at(-1)!;
    expect(verified(secret, test)).toMatchObject({ type: 'webhook.test', data: { webhookId: row.id } });
    expect(verified(old, test)).toMatchObject({ type: 'webhook.test' });
    expect(signaturesOf(test)).toHaveLength(2);
    expect(() =>
      verified(secret, { ...test, headers: { ...test.headers, 'webhook-signature': signaturesOf(test)[1] } }),
    ).toThrow();

    // A publication event through the queue, after the grace period: signed with the new secret only.
    await panel.server.tdb.db
      .updateTable('webhooks')
      .set({ previousSecretUntil: Date.now() - 1 })
      .where('id', '=', row.id)
      .execute();
    const operator = await userByLogin(panel.server.tdb.db, 'operator');
    await recordEvents(
      panel.server.app.root,
      postEvent(operator.id, { publishId: 78, videoId: 6, platform: 'tiktok', state: 'published' }, 'post.published'),
    );
    await runDeliveries();
    const event = receiver.received.filter((r) => r.path === '/rotated').at(-1)!;
    expect(event.headers['webhook-id']).not.toBe(test.headers['webhook-id']);
    expect(signaturesOf(event)).toHaveLength(1);
    expect(verified(secret, event)).toMatchObject({ type: 'post.published', data: { publishId: 78 } });
    expect(() => verified(old, event)).toThrow();
    await page.reload();
    await hook.getByRole('button', { name: 'Надіслати тест' }).waitFor();
    expect(await hook.innerText()).not.toContain('Старий секрет дійсний до');
  });
});
