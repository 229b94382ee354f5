import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

/** The built panel works under its Content-Security-Policy (issue 9, item 6): it loads, signs in, shows lists. */
describe('the panel under its Content-Security-Policy', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const violations: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    // Every violation the browser reports: as an event in the page and as a console error.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`csp-violation ${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    page.on('console', (m) => {
      if (/csp-violation|Content Security Policy/i.test(m.text()))
        violations.push(`${new URL(page.url()).pathname}: ${m.text()}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the document carries the policy, the panel loads and signs in, lists and the API docs render, nothing blocked', async () => {
    const res = await page.goto(`${server.url}/login`);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await signInAs(page, server.url, 'admin', 'admin-pass');
    await page.goto(`${server.url}/users`);
    await page.getByRole('columnheader', { name: 'Логін' }).first().waitFor();
    await page.getByText('admin', { exact: true }).first().waitFor();
    await page.goto(`${server.url}/api/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();
    expect(violations).toEqual([]);
  });
});
