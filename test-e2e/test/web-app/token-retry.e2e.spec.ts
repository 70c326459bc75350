import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { httpCall } from '../../src/fixtures/http.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { BROWSER_TEST_MS, signIn, useWebApp, type WebSystem } from './web-harness.js';

/** The token form sends an Idempotency-Key (ADR 0119): a lost answer, resubmitted, is one token. */
describe('the web app in Chromium: a token form submitted again after a lost answer', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp({ slug: 'webapp-token-retry' }, (app) => ({ web, owner, page } = app));

  it(
    'shows the first answer’s secret on the retry, and the list holds one token',
    async () => {
      await signIn(page, web.origin(owner.host), {
        email: owner.user.email,
        password: owner.password,
      });
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Access tokens' })
        .click();
      await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();

      // The first POST reaches the gateway, which creates the token; its answer is then lost.
      const keys: string[] = [];
      let lost = false;
      await page.route('**/api/personal-access-tokens', async (route) => {
        const request = route.request();
        if (request.method() !== 'POST') return route.continue();
        keys.push(request.headers()['idempotency-key'] ?? '');
        if (lost) return route.continue();
        lost = true;
        // Sent on from here as the browser sent it (Node cannot resolve the tenant's host name).
        const { host: _host, ...headers } = request.headers();
        const answer = await httpCall(
          web.system.gatewayUrl,
          'POST',
          '/api/personal-access-tokens',
          {
            host: owner.host,
            headers,
            rawBody: request.postData() ?? '',
          },
        );
        expect(answer.status).toBe(201);
        return route.abort('connectionreset');
      });

      await page.getByRole('button', { name: 'New token' }).click();
      const form = page.getByRole('form', { name: 'New token' });
      await form.getByLabel('Name').fill('Nightly export');
      await form.getByRole('checkbox', { name: 'orders:read', exact: true }).check();
      await form.getByRole('button', { name: 'Create token' }).click();
      await form.locator('.form-error').waitFor();
      await form.getByRole('button', { name: 'Create token' }).click();

      const plain = await page.getByTestId('new-token').inputValue();
      expect(plain).toMatch(/^\d+\|[A-Za-z0-9]{40,}$/);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
      expect(keys[1]).toBe(keys[0]);
      expect((await owner.withToken(plain)('GET', '/api/user')).status).toBe(200);

      await page.getByRole('button', { name: 'I have saved it' }).click();
      await page.locator(`tr[data-token-id="${plain.split('|')[0]}"]`).waitFor();
      await expect.poll(() => page.getByRole('link', { name: 'Nightly export' }).count()).toBe(1);
    },
    BROWSER_TEST_MS,
  );
});
