import { MAX_ACTIVE_TOKENS } from '@inventory/access';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import {
  ALL_SCOPES,
  asUser,
  identityClient,
  type TenantFixture,
} from '../../src/fixtures/tenants.js';
import { BROWSER_TEST_MS, useWebApp, type WebSystem } from './web-harness.js';

describe('the web app by keyboard alone, at the 50-token limit', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  useWebApp({ slug: 'webapp-limit' }, (app) => ({ web, owner } = app));

  beforeAll(async () => {
    // The fixture holds one token; 49 more reach the specification's limit.
    const identity = identityClient(web.system);
    for (let i = 2; i <= MAX_ACTIVE_TOKENS; i++)
      await asUser(owner.tenant.id, owner.user.id, () =>
        identity.call.createToken({
          name: `token ${String(i).padStart(2, '0')}`,
          scopes: i % 2 ? ALL_SCOPES.slice(0, 2) : [],
          ip_allowlist: [],
          input_violations: [],
        }),
      );
  }, BROWSER_TEST_MS);

  it(
    'signs in, pages through 50 tokens, is stopped at the limit and revokes one, all with the keyboard',
    async () => {
      const { page } = await web.newPage();
      const focusedName = () => page.locator(':focus').getAttribute('name');
      await page.goto(`${web.origin(owner.host)}/app/settings/developer/tokens`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.keyboard.press('Tab');
      expect(await focusedName()).toBe('email');
      await page.keyboard.type(owner.user.email);
      await page.keyboard.press('Tab');
      expect(await focusedName()).toBe('password');
      await page.keyboard.type(owner.password);
      await page.keyboard.press('Enter');

      // The deep link survives signing in.
      await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();
      await page.getByText('Page 1 of 3 (50 total)').waitFor();
      const newToken = page.getByRole('button', { name: 'New token' });
      expect(await newToken.isDisabled()).toBe(true);
      await page
        .getByText(`You have ${MAX_ACTIVE_TOKENS} active tokens, the most allowed.`)
        .waitFor();
      await screenshot(page, 'token-limit');

      await page.getByRole('button', { name: 'Next' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Page 2 of 3 (50 total)').waitFor();
      expect(page.url()).toContain('page=2');

      const revoke = page.getByRole('row').nth(1).getByRole('button', { name: 'Revoke' });
      await revoke.focus();
      await page.keyboard.press('Enter');
      // The confirmation takes the focus, so Enter confirms.
      const confirm = page.getByRole('button', { name: 'Yes, revoke' });
      await confirm.waitFor();
      expect(await page.locator(':focus').textContent()).toBe('Yes, revoke');
      await page.keyboard.press('Enter');
      await page.getByText(/^Revoked “token \d\d”\.$/).waitFor();
      await page.getByText('Page 2 of 3 (49 total)').waitFor();
      expect(await newToken.isDisabled()).toBe(false);
    },
    BROWSER_TEST_MS,
  );
});
