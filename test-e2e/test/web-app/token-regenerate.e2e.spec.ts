import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import { createUserWithToken, type TenantFixture } from '../../src/fixtures/tenants.js';
import { BROWSER_TEST_MS, signIn, useWebApp, type WebSystem } from './web-harness.js';

/**
 * The tokens page's Regenerate (a new secret shown once, the old one refused at once) and the
 * organisation's token policy above the list (ADR 0120), every member's tokens below it for an
 * admin (ADR 0121), and the list's loading placeholders.
 */
describe(
  "the web app in Chromium: regenerating a token, the token policy, members' tokens",
  { shuffle: false },
  () => {
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

    it(
      'sets a token policy: the token breaking it is flagged, a token outside it refused, then lifted',
      async () => {
        const rules = page.getByTestId('policy-rules');
        await expect.poll(() => rules.textContent()).toContain('No organisation rules');
        await page.getByRole('button', { name: 'Edit policy' }).click();
        const form = page.getByRole('form', { name: 'Token policy' });
        await form.getByLabel('Maximum lifetime (days)').fill('30');
        await form.getByLabel('Require an IP allowlist on every token').check();
        await form.getByRole('button', { name: 'Save policy' }).click();
        await page.getByText(/^Saved\. 1 active token breaks it/).waitFor();
        await expect.poll(() => rules.textContent()).toContain('Tokens expire within 30 days.');
        const row = page.locator(`tr[data-token-id="${owner.tokenId}"]`);
        await expect
          .poll(() => row.getByTestId('policy-breach').textContent())
          .toBe('Breaks the policy: needs an IP allowlist');
        await screenshot(page, 'token-policy-flagged');

        await page.getByRole('button', { name: 'New token' }).click();
        const create = page.getByRole('form', { name: 'New token' });
        await create.getByLabel('Name').fill('outside the policy');
        await create.getByLabel('Expiration').selectOption('never');
        await create.getByRole('button', { name: 'Create token' }).click();
        await create
          .getByText("Your organisation's token policy requires an expiry, at most 30 days away.")
          .waitFor();
        await create
          .getByText("Your organisation's token policy requires an IP allowlist.")
          .waitFor();
        await create.getByRole('button', { name: 'Cancel' }).click();

        await page.getByRole('button', { name: 'Edit policy' }).click();
        await form.getByLabel('Maximum lifetime (days)').fill('');
        await form.getByLabel('Allow tokens that never expire').check();
        await form.getByLabel('Require an IP allowlist on every token').uncheck();
        await form.getByRole('button', { name: 'Save policy' }).click();
        await page.getByText('Saved. Every active token keeps to it.').waitFor();
        await expect.poll(() => row.getByTestId('policy-breach').count()).toBe(0);
      },
      BROWSER_TEST_MS,
    );
    it(
      "lists every member's tokens for the admin, and revokes one: its owner's next call is 401",
      async () => {
        const member = await createUserWithToken(web.system, owner.tenant, {
          isOwner: false,
          permissions: ['orders:read'],
          scopes: ['orders:read'],
          token: { name: 'warehouse sync' },
        });
        await page.reload();
        await page.getByRole('button', { name: "Show every member's tokens" }).click();
        const table = page.getByRole('table', { name: "Every member's tokens" });
        const row = table.locator(`tr[data-member-token-id="${member.tokenId}"]`);
        await row.waitFor();
        expect(await row.getByText(member.user.email).count()).toBeGreaterThan(0);
        expect(await row.getByText('warehouse sync').count()).toBe(1);
        await screenshot(page, 'member-tokens');
        await row.getByRole('button', { name: 'Revoke' }).click();
        await row.getByRole('button', { name: 'Yes, revoke' }).click();
        await page.getByText(`Revoked “warehouse sync” of ${member.user.email}.`).waitFor();
        await expect.poll(() => row.count()).toBe(0);
        expect((await member.request('GET', '/api/user')).status).toBe(401);
      },
      BROWSER_TEST_MS,
    );

    it(
      'shows placeholders in the shape of a list while it loads, not a line of text',
      async () => {
        // The list's answer is held until the placeholders have been seen, then let through.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        const tokenList = (url: URL) => url.pathname === '/api/personal-access-tokens';
        await page.route(tokenList, async (route) => {
          await held;
          // A request the page gave up meanwhile (a failed step navigated away) has nothing to continue.
          await route.continue().catch(() => undefined);
        });
        try {
          await page.goto(`${web.origin(owner.host)}/app/settings/developer/tokens`);
          // The list's own placeholders (the token policy and every member's tokens load apart).
          const loading = page.getByRole('status').filter({ hasText: 'Loading your tokens…' });
          await loading.waitFor();
          expect(await loading.getAttribute('aria-busy')).toBe('true');
          expect(await loading.locator('.skeleton-line').count()).toBe(6);
          expect(await loading.locator('.skeleton-line').first().isVisible()).toBe(true);
          await screenshot(page, 'tokens-loading');
          release();
          await page.locator(`tr[data-token-id="${owner.tokenId}"]`).waitFor();
          expect(await page.locator('.skeleton').count()).toBe(0);
        } finally {
          release();
          await page.unroute(tokenList);
        }
      },
      BROWSER_TEST_MS,
    );
  },
);
