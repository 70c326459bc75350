import { readFile } from 'node:fs/promises';
import { waitFor } from '@inventory/local-infra';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import { npmRunEmit } from '../../src/fixtures/emit.js';
import { createUserWithToken, type TenantFixture } from '../../src/fixtures/tenants.js';
import { previousStepCode, totpCode } from '../../src/fixtures/totp.js';
import { BROWSER_TEST_MS, PROVIDER_KEY, signIn, useWebApp, type WebSystem } from './web-harness.js';

const TOKENS = '/app/settings/developer/tokens';
const PARCEL = '/app/integrations/parcel-tracking';
const NUMBER = '1Z999AA10123456790';

/** The defects an admin met trying the app (issue 43), each as the admin met it. */
describe('the web app in Chromium: what an admin found wrong', { shuffle: false }, () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp(
    {
      slug: 'webapp-defects',
      tenantName: 'Defects & Sons Ltd',
      signedIn: true,
      // Registration (and a fresh row's first poll) runs soon after the emit.
      parcelTrackingEnv: { TRACKING_WORKER_INTERVAL_MS: '500' },
    },
    (app) => ({ web, owner, page } = app),
  );
  const origin = () => web.origin(owner.host);

  /** Creates a token through the form and returns its plain text. */
  const createToken = async (name: string, allowlist = '') => {
    await page.goto(`${origin()}${TOKENS}`);
    await page.getByRole('button', { name: 'New token' }).click();
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Name').fill(name);
    if (allowlist) await form.getByLabel(/IP allowlist/).fill(allowlist);
    await form.getByRole('button', { name: 'Create token' }).click();
    const plain = await page.getByTestId('new-token').inputValue();
    await page.getByRole('button', { name: 'I have saved it' }).click();
    return plain;
  };

  it(
    'names every bad field of one submission, each against its field and line, in plain words',
    async () => {
      await page.goto(`${origin()}${TOKENS}`);
      await page.getByRole('button', { name: 'New token' }).click();
      const form = page.getByRole('form', { name: 'New token' });
      const errorsOf = (name: string) =>
        form
          .locator('.field', { has: page.locator(`[name="${name}"]`) })
          .locator('.field-error')
          .allTextContents();
      await form.getByLabel('Expiration').selectOption('custom');
      await form.getByLabel('Expires on').fill('2020-01-01');
      await form.getByLabel(/IP allowlist/).fill('not-an-ip\n10.0.0.0/33');
      await form.getByLabel(/Rate limit/).fill('5000');
      await form.getByRole('button', { name: 'Create token' }).click();
      // One answer names all four fields (defect 3)…
      await form
        .locator('.field', { has: page.locator('[name="rate_limit_per_minute"]') })
        .locator('.field-error')
        .waitFor();
      expect(await errorsOf('name')).toEqual(['Name is required.']);
      expect(await errorsOf('expires_at')).toEqual(['Must be a date after now.']);
      expect(await errorsOf('rate_limit_per_minute')).toEqual(['Must be between 1 and 1000.']);
      // …each bad line by its number and value, in words a person uses (defect 5).
      expect(await errorsOf('ip_allowlist')).toEqual([
        'Line 1, “not-an-ip”: must be a valid IPv4 or IPv6 CIDR range.',
        'Line 2, “10.0.0.0/33”: must be a valid IPv4 or IPv6 CIDR range.',
      ]);
      expect(await form.textContent()).not.toMatch(
        /ip_allowlist|rate_limit_per_minute|The [\w ]+ field/,
      );
      // The banner points at the fields instead of repeating them.
      expect(await form.locator('.form-error').textContent()).toBe(
        'Check the 4 fields marked above.',
      );
      await screenshot(page, 'token-form-all-errors');
      await form.getByRole('button', { name: 'Cancel' }).click();
    },
    BROWSER_TEST_MS,
  );

  it(
    'lists a 404 and an IP-refused 403 in the history of the token that made them (rule 8)',
    async () => {
      const plain = await createToken('Refused from here', '203.0.113.0/24');
      const call = owner.withToken(plain);
      expect((await call('GET', '/api/user')).status).toBe(403);
      expect((await call('GET', '/api/does-not-exist')).status).toBe(404);
      const id = plain.split('|')[0]!;
      await page.goto(`${origin()}${TOKENS}/${id}`);
      const history = page.getByRole('table', { name: 'Request history' });
      // The request log is written after the answer: reload until both show.
      await expect
        .poll(
          async () => {
            await page.reload();
            await history.or(page.getByText('No requests match.')).waitFor();
            return (await history.count()) ? history.locator('tbody tr').allTextContents() : [];
          },
          { timeout: 90_000 },
        )
        .toEqual([
          expect.stringMatching(/GET \/api\/does-not-exist.*404/),
          expect.stringMatching(/GET \/api\/user.*403/),
        ]);
      await page.goto(`${origin()}${TOKENS}`);
      const row = page.locator(`tr[data-token-id="${id}"]`);
      expect(await row.locator('td[data-label="Last used"]').textContent()).not.toBe('never');
    },
    BROWSER_TEST_MS,
  );

  it(
    'explains a bad status filter in words, against the field',
    async () => {
      const plain = await createToken('Filtered');
      const id = plain.split('|')[0]!;
      await page.goto(`${origin()}${TOKENS}/${id}?status=abc`);
      const error = page.locator('#filter-status-error');
      expect(await error.textContent()).toBe(
        '“abc” is not a status: use codes such as 200 or 404, or classes such as 4xx.',
      );
    },
    BROWSER_TEST_MS,
  );

  it(
    'keeps the dashboard live: what arrived while another tab was open shows, and it refreshes itself',
    async () => {
      await page.goto(`${origin()}${PARCEL}`);
      const connect = page.getByRole('form', { name: 'Connect parcel tracking' });
      await connect.getByLabel('Provider API key').fill(PROVIDER_KEY);
      await connect.getByRole('button', { name: 'Connect' }).click();
      const webhookUrl = await page.getByTestId('webhook-url').textContent();
      web.sim.addKey({
        key: PROVIDER_KEY,
        webhookUrl: `${origin()}${new URL(webhookUrl!).pathname}`,
      });
      await page.getByRole('link', { name: 'Trackings' }).click();
      await npmRunEmit(web.system, 'shipment.tracking_assigned', owner.tenant.slug, {
        trackable_type: 'sales_order_fulfillment',
        trackable_id: 801,
        trackable_label: 'SO-801 / F1',
        trackable_url: '/sales-orders/801/fulfillments/1',
        tracking_number: NUMBER,
        sales_channel_id: 1,
        sub_channel_id: 11,
      });
      const status = page
        .getByRole('table', { name: 'Trackings' })
        .getByRole('row')
        .filter({ hasText: NUMBER })
        .locator('[data-status]');
      const refreshUntil = (expected: string) =>
        expect
          .poll(
            async () => {
              await page.getByRole('button', { name: 'Refresh' }).click();
              return (await status.count()) ? status.getAttribute('data-status') : 'no row';
            },
            { timeout: 90_000 },
          )
          .toBe(expected);
      await refreshUntil('not_found');
      web.sim.advance(NUMBER);
      await refreshUntil('info_received');

      // Defect 1: the Dashboard tab showed the instance as it was when the section opened.
      await page.getByRole('link', { name: 'Dashboard' }).click();
      const counts = page.getByTestId('status-counts');
      const count = (bucket: string) =>
        counts.locator(`[data-status="${bucket}"]`).textContent({ timeout: 1_000 });
      await expect.poll(() => count('info_received'), { timeout: 30_000 }).toBe('1');
      expect(await page.getByTestId('last-webhook').textContent()).not.toBe('—');
      // Live: the next push shows without a click or a reload.
      web.sim.advance(NUMBER);
      await expect.poll(() => count('in_transit'), { timeout: 90_000 }).toBe('1');
      expect(await count('info_received')).toBe('0');
      await page.getByText(/^Updated /).waitFor();
      // Each bucket opens the trackings list filtered to it.
      await counts.getByRole('link', { name: /in transit/i }).click();
      await page.waitForURL(/\/trackings\?filter%5Bdelivery_status%5D=in_transit/);
      await status.waitFor();
    },
    BROWSER_TEST_MS,
  );

  it(
    'finds the connected integration from another browser (defect 2)',
    async () => {
      const { context, page: elsewhere } = await web.newPage();
      try {
        await signIn(elsewhere, origin(), { email: owner.user.email, password: owner.password });
        await elsewhere
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Parcel tracking' })
          .click();
        await elsewhere.getByTestId('status-counts').waitFor();
        expect(await elsewhere.getByText('Connect your parcel-tracking provider').count()).toBe(0);
        expect(await elsewhere.evaluate<number>('Object.keys(localStorage).length')).toBe(0);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );

  /** The boxes that scroll sideways or hold something wider than themselves (none when all fits). */
  const overflowing = () =>
    page.evaluate<string[]>(
      `[...document.querySelectorAll('.table-wrap, fieldset')]
        .filter((box) => box.scrollWidth > box.clientWidth + 1)
        .map((box) => box.className || box.tagName)`,
    );

  it(
    'layout and state: a whole revoke warning, events inside their box, no stale notice (defect 6)',
    async () => {
      await page.goto(`${origin()}${TOKENS}`);
      const row = page.locator(`tr[data-token-id="${owner.tokenId}"]`);
      // A notice from the last save goes once the next edit starts.
      await row.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('button', { name: 'Save changes' }).click();
      const saved = page.getByText('Saved “fixture”.');
      await saved.waitFor();
      await row.getByRole('button', { name: 'Edit' }).click();
      await saved.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Cancel' }).click();
      // The revoke question shows whole at 1280 px: nothing scrolls it out of its table.
      expect(await overflowing()).toEqual([]);
      await row.getByRole('button', { name: 'Revoke' }).click();
      const question = row.getByText('Calls with it stop working at once.', { exact: false });
      await question.waitFor();
      await screenshot(page, 'token-revoke-question');
      expect(await overflowing()).toEqual([]);
      const box = (await question.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(1280);
      await row.getByRole('button', { name: 'Cancel' }).click();

      // The webhook event checkboxes stay inside their box, at 1280 and 390 px.
      await page.goto(`${origin()}/app/webhooks`);
      await page.getByRole('button', { name: 'New subscription' }).click();
      const form = page.getByRole('form', { name: 'New subscription' });
      await form.getByRole('checkbox', { name: 'purchase_order.submitted' }).waitFor();
      expect(await overflowing()).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await overflowing()).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 900 });
      // The signing secret's Copy button says what it did.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: origin(),
      });
      await form.getByLabel('Endpoint URL').fill(`${web.receiverUrl}/hooks/defects`);
      await form.getByRole('checkbox', { name: 'sales_order.created' }).check();
      await form.getByRole('button', { name: 'Create subscription' }).click();
      const secret = page.getByRole('region', { name: 'Signing secret' });
      await secret.getByRole('button', { name: 'Copy' }).click();
      await secret.getByText('Copied to the clipboard.').waitFor();
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toMatch(/^whsec_/);
      await secret.getByRole('button', { name: 'I have saved it' }).click();

      // A date from a shared link that is no date leaves the date input empty, and says so.
      await page.goto(`${origin()}${PARCEL}/trackings?filter%5Bdate_from%5D=13%2F45%2F2026`);
      const from = page.getByLabel('Created from');
      await page.locator('.field', { has: from }).locator('.field-error').waitFor();
      expect(await from.inputValue()).toBe('');
    },
    BROWSER_TEST_MS,
  );

  it('names the organisation in the header, read from the API', async () => {
    await page.goto(`${origin()}${TOKENS}`);
    const name = page.getByRole('banner').getByTestId('tenant-name');
    await name.waitFor();
    expect(await name.textContent()).toBe('Defects & Sons Ltd');
  });

  it('names each page in the title, and has a favicon (defect 6)', async () => {
    for (const [path, title] of [
      [TOKENS, 'Personal access tokens · Inventory'],
      ['/app/webhooks', 'Webhooks · Inventory'],
      [`${PARCEL}/trackings`, 'Trackings · Parcel tracking · Inventory'],
      ['/app/settings/security', 'Security · Inventory'],
    ] as const) {
      await page.goto(`${origin()}${path}`);
      await expect.poll(() => page.title()).toBe(title);
    }
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    // Fetched by the page itself: the tenant host resolves only inside the browser.
    const answer = await page.evaluate<[number, string]>(
      `fetch(${JSON.stringify(icon)}).then((r) => [r.status, r.headers.get('content-type')])`,
    );
    expect(answer[0]).toBe(200);
    expect(answer[1]).toContain('image/svg+xml');
  });

  it(
    'says a reused two-factor code is already used, not invalid (defect 6)',
    async () => {
      const user = await createUserWithToken(web.system, owner.tenant);
      const { context, page: tab } = await web.newPage();
      try {
        await signIn(tab, origin(), { email: user.user.email, password: user.password });
        await tab.getByRole('link', { name: 'Security' }).click();
        await tab.getByRole('button', { name: 'Set up two-factor' }).click();
        const secret = (await tab.getByTestId('totp-secret').textContent())!;
        // Confirmed with the previous step's code, early in a step, so the current one is unused.
        await waitFor(() => Date.now() % 30_000 < 15_000, { everyMs: 200, timeoutMs: 40_000 });
        await tab.getByLabel('Code from the app').fill(await previousStepCode(secret));
        await tab.getByRole('button', { name: 'Confirm and turn on' }).click();
        await tab.getByText('Two-factor authentication is on.').waitFor();
        const code = totpCode(secret);
        const signInWith = async () => {
          await tab.getByRole('button', { name: 'Sign out' }).click();
          await tab.getByLabel('Email').fill(user.user.email);
          await tab.getByLabel('Password').fill(user.password);
          await tab.getByRole('button', { name: 'Sign in' }).click();
          await tab.getByLabel('Two-factor code').fill(code);
          await tab.getByRole('button', { name: 'Sign in' }).click();
        };
        await signInWith();
        await tab.getByRole('button', { name: 'Sign out' }).waitFor();
        await signInWith();
        const error = tab.locator('.field', { has: tab.getByLabel('Two-factor code') });
        expect(await error.locator('.field-error').textContent()).toBe(
          'This two-factor code has already been used. Wait for the next code from your app.',
        );
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );

  it(
    'exports the trackings list as filtered to CSV: the filter holds, cells are text',
    async () => {
      // A second shipment, not in transit: the filtered export leaves it out.
      const other = '1Z999AA10123456791';
      await npmRunEmit(web.system, 'shipment.tracking_assigned', owner.tenant.slug, {
        trackable_type: 'sales_order_fulfillment',
        trackable_id: 802,
        trackable_label: 'SO-802 / F1',
        trackable_url: '/sales-orders/802/fulfillments/1',
        tracking_number: other,
        sales_channel_id: 1,
        sub_channel_id: 11,
      });
      await page.goto(`${origin()}${PARCEL}/trackings`);
      await page.getByRole('table', { name: 'Trackings' }).getByText(other).waitFor();
      await page.goto(`${origin()}${PARCEL}/trackings?filter%5Bdelivery_status%5D=in_transit`);
      await page.getByRole('table', { name: 'Trackings' }).getByText(NUMBER).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^trackings-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = (await readFile((await download.path())!, 'utf8'))
        .replace(/^\uFEFF/, '')
        .split('\r\n');
      expect(lines[0]).toBe(
        'Tracking number,For,Carrier,Registered,Status,Latest event,Last event,Estimated,Delivered',
      );
      expect(lines.slice(1).filter(Boolean)).toHaveLength(1);
      expect(lines[1]!.split(',').slice(0, 2)).toEqual([NUMBER, 'SO-801 / F1']);
      expect(lines[1]).toContain(',in_transit,');
      await page.getByText(/^Exported 1 row to trackings-/).waitFor();
      await screenshot(page, 'trackings-exported');
    },
    BROWSER_TEST_MS,
  );
});
