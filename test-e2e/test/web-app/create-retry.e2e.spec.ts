import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { httpCall } from '../../src/fixtures/http.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { BROWSER_TEST_MS, useWebApp, type WebSystem } from './web-harness.js';

/**
 * The forms that create something shown once send an Idempotency-Key (ADR 0119): the first
 * POST reaches the gateway, which creates the thing, and its answer is lost on the way back; the
 * person submits again and sees the first answer's secret, and one thing exists.
 */
describe('the web app in Chromium: a create form submitted again after a lost answer', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp({ slug: 'webapp-create-retry', signedIn: true }, (app) => ({ web, owner, page } = app));

  /** Loses the answer to the first POST to `path` (after the gateway has answered it). */
  async function loseFirstAnswer(path: string): Promise<string[]> {
    const keys: string[] = [];
    await page.route(`**${path}`, async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      keys.push(request.headers()['idempotency-key'] ?? '');
      if (keys.length > 1) return route.continue();
      // Sent on from here as the browser sent it (Node cannot resolve the tenant's host name).
      const { host: _host, ...headers } = request.headers();
      const answer = await httpCall(web.system.gatewayUrl, 'POST', path, {
        host: owner.host,
        headers,
        rawBody: request.postData() ?? '',
      });
      expect(answer.status).toBe(201);
      return route.abort('connectionreset');
    });
    return keys;
  }

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();

  it(
    'a personal access token: the retry shows the first secret, and the list holds one token',
    async () => {
      await nav('Access tokens');
      await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();
      const keys = await loseFirstAnswer('/api/personal-access-tokens');

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

  it(
    'a webhook subscription: the retry shows the first signing secret, and one subscription exists',
    async () => {
      await nav('Webhooks');
      const keys = await loseFirstAnswer('/api/webhook-subscriptions');
      await page.getByRole('button', { name: 'New subscription' }).click();
      const form = page.getByRole('form', { name: 'New subscription' });
      await form.getByLabel('Endpoint URL').fill(`${web.receiverUrl}/hooks/retried`);
      await form.getByRole('checkbox', { name: 'sales_order.created' }).check();
      await form.getByRole('button', { name: 'Create subscription' }).click();
      await form.locator('.form-error').waitFor();
      await form.getByRole('button', { name: 'Create subscription' }).click();

      const secret = await page.getByTestId('signing-secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
      const list = await owner.request('GET', '/api/webhook-subscriptions');
      expect(list.body.total).toBe(1);
      expect(list.body.data[0].url).toBe(`${web.receiverUrl}/hooks/retried`);
    },
    BROWSER_TEST_MS,
  );
});
