import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { BROWSER_TEST_MS, signIn, useWebApp, type WebSystem } from './web-harness.js';

/** Settings → Developer → Personal Access Tokens: create, use, history, edit, revoke. */
describe('the web app in Chromium: personal access tokens', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp({ slug: 'webapp-tokens' }, (app) => ({ web, owner, page } = app));
  const origin = () => web.origin(owner.host);

  it(
    'creates a token with a write scope, uses it over HTTP, sees the request, revokes it',
    async () => {
      await signIn(page, origin(), { email: owner.user.email, password: owner.password });
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Access tokens' })
        .click();
      await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();
      await page.getByRole('button', { name: 'New token' }).click();
      const form = page.getByRole('form', { name: 'New token' });
      // Validation messages land next to their fields.
      const fieldOf = (name: string) =>
        form.locator('.field', { has: page.locator(`input[name="${name}"]`) });
      await form.getByRole('button', { name: 'Create token' }).click();
      await fieldOf('name').locator('.field-error').waitFor();
      expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
      await form.getByLabel('Name').fill('Browser CI');
      await form.getByLabel(/Rate limit/).fill('5000');
      await form.getByRole('button', { name: 'Create token' }).click();
      await fieldOf('rate_limit_per_minute').locator('.field-error').waitFor();
      await fieldOf('name').locator('.field-error').waitFor({ state: 'detached' });
      await screenshot(page, 'token-form-errors');

      await form.getByLabel(/Rate limit/).fill('120');
      await form.getByRole('checkbox', { name: 'orders:write', exact: true }).check();
      await form.getByRole('checkbox', { name: 'orders:read', exact: true }).check();
      await form.getByRole('button', { name: 'Create token' }).click();
      const plain = await page.getByTestId('new-token').inputValue();
      expect(plain).toMatch(/^\d+\|[A-Za-z0-9]{40,}$/);
      await page.getByText('This is the only time it is shown.').waitFor();
      await screenshot(page, 'token-created');

      const used = await owner.withToken(plain)('GET', '/api/user');
      expect(used.status).toBe(200);
      expect(used.body.data.email).toBe(owner.user.email);

      await page.getByRole('button', { name: 'I have saved it' }).click();
      const row = page.locator(`tr[data-token-id="${plain.split('|')[0]}"]`);
      await row.getByText('orders:read, orders:write').waitFor();
      await row.getByRole('link', { name: 'Browser CI' }).click();
      // The request log is written after the answer: reload until it shows.
      await expect
        .poll(
          async () => {
            await page.reload();
            return page
              .getByRole('table', { name: 'Request history' })
              .or(page.getByText('No requests match.'))
              .textContent();
          },
          { timeout: 90_000 },
        )
        .toContain('GET /api/user');
      await page.getByText('Requests (30 days)').waitFor();
      // The day chart: a legend for both series, the day's figures read out for each bar.
      const chart = page.getByRole('figure', { name: 'Requests per day' });
      await chart.locator('.legend').getByText('Errors', { exact: true }).waitFor();
      expect(await chart.locator('.bars li').count()).toBe(30);
      expect(await chart.locator('.bars').textContent()).toMatch(/\d+ requests, \d+ errors/);
      await screenshot(page, 'token-usage-history');
      // Filters: a bad status is named next to its field; a class filter keeps the row; all in the URL.
      await page.getByLabel('Status').fill('abc');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page
        .locator('#filter-status-error')
        .getByText('“abc” is not a status', { exact: false })
        .waitFor();
      await page.getByLabel('Status').fill('4xx');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No requests match.').waitFor();
      await page.getByLabel('Status').fill('2xx');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page
        .getByRole('table', { name: 'Request history' })
        .getByText('GET /api/user')
        .waitFor();
      expect(page.url()).toContain('status=2xx');

      await page.getByRole('link', { name: 'Personal access tokens' }).click();
      // Adding a write scope to an existing token asks for the password again (rule 6).
      await row.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('form', { name: 'Edit token' });
      await edit.getByRole('checkbox', { name: 'products:write', exact: true }).check();
      await edit.getByLabel('Password').fill('not-the-password');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.getByRole('alert').first().waitFor();
      await screenshot(page, 'token-edit-reauth');
      await edit.getByLabel('Password').fill(owner.password);
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved “Browser CI”.').waitFor();
      await row.getByText('orders:read, orders:write, products:write').waitFor();
      await row.getByRole('button', { name: 'Revoke' }).click();
      await row.getByRole('button', { name: 'Yes, revoke' }).click();
      await page.getByText('Revoked “Browser CI”.').waitFor();
      await row.waitFor({ state: 'detached' });
      const refused = await owner.withToken(plain)('GET', '/api/user');
      expect(refused.status).toBe(401);
    },
    BROWSER_TEST_MS,
  );

  it(
    'offers expiry presets, warns about a token that never expires, and shows what each scope grants',
    async () => {
      await page.goto(`${origin()}/app/settings/developer/tokens`);
      await page.getByRole('button', { name: 'New token' }).click();
      const form = page.getByRole('form', { name: 'New token' });
      // Focus lands where the person works next: the form's name, then the new token itself.
      await expect.poll(() => page.evaluate<string>('document.activeElement?.name')).toBe('name');
      // Each scope says what it grants, in the specification's words.
      const ordersRead = form.getByRole('checkbox', { name: 'orders:read', exact: true });
      const describedBy = await ordersRead.getAttribute('aria-describedby');
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(
        'View sales orders and order lines',
      );
      await form.getByRole('button', { name: 'Select all read' }).click();
      expect(await form.locator('input[name="scopes"]:checked').count()).toBe(9); // the specification's 8 and webhooks:read (ADR 0413)
      // 30 days unless chosen otherwise; no expiration is allowed, with a warning.
      expect(await form.getByLabel('Expiration').inputValue()).toBe('30');
      await form.getByLabel('Expiration').selectOption('never');
      await form.getByText('works until it is revoked', { exact: false }).waitFor();
      await form.getByLabel('Expiration').selectOption('7');
      await form.getByLabel('Name').fill('Seven days');
      await form.getByRole('button', { name: 'Create token' }).click();
      const plain = await page.getByTestId('new-token').inputValue();
      // Focus moves to the new secret once it is shown (polled: the move follows the render).
      await expect
        .poll(() => page.evaluate<string>('document.activeElement?.getAttribute("aria-label")'))
        .toBe('New token');
      await page.getByRole('button', { name: 'I have saved it' }).click();
      const row = page.locator(`tr[data-token-id="${plain.split('|')[0]}"]`);
      // A revoke question cancelled gives focus back to its Revoke button.
      await row.getByRole('button', { name: 'Revoke' }).click();
      await row.getByRole('button', { name: 'Cancel' }).click();
      await expect
        .poll(() => page.evaluate<string>('document.activeElement?.textContent'))
        .toBe('Revoke');
      expect(await row.locator('td[data-label="Expires"]').textContent()).toMatch(
        /^expires in [67] days$/,
      );
      expect(
        await row.getByText(/^customers:read, .*warehouses:read, webhooks:read$/).count(),
      ).toBe(1);
      await screenshot(page, 'tokens-expiry-badges');
    },
    BROWSER_TEST_MS,
  );
});
