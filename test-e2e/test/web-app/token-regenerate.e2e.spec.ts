import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { BROWSER_TEST_MS, signIn, useWebApp, type WebSystem } from './web-harness.js';

/** The tokens page's Regenerate: a new secret shown once, the old one refused at once. */
describe('the web app in Chromium: regenerating a token', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp({ slug: 'webapp-regenerate' }, (app) => ({ web, owner, page } = app));

  it(
    'regenerates the fixture token with a new expiry; the old secret gets 401, the new one works',
    async () => {
      await signIn(page, web.origin(owner.host), {
        email: owner.user.email,
        password: owner.password,
      });
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Access tokens' })
        .click();
      const row = page.locator(`tr[data-token-id="${owner.tokenId}"]`);
      await row.getByText('never expires').waitFor();
      await row.getByRole('button', { name: 'Regenerate' }).click();
      const form = page.getByRole('form', { name: 'Regenerate token' });
      await form.getByText('stops working at once', { exact: false }).waitFor();
      await form.getByLabel('New expiration').selectOption('7');
      await screenshot(page, 'token-regenerate-form');
      await form.getByRole('button', { name: 'Regenerate token' }).click();

      const plain = await page.getByTestId('new-token').inputValue();
      expect(plain.startsWith(`${owner.tokenId}|`)).toBe(true);
      expect(plain).not.toBe(owner.token);
      await page.getByText('the previous token no longer works', { exact: false }).waitFor();
      await screenshot(page, 'token-regenerated');
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await row.getByText(/expires in [67] days/).waitFor();

      expect((await owner.request('GET', '/api/user')).status).toBe(401);
      expect((await owner.withToken(plain)('GET', '/api/user')).status).toBe(200);
    },
    BROWSER_TEST_MS,
  );
});
