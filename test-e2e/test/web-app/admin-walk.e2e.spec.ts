import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SCREENSHOT_DIR } from '../../src/fixtures/browser.js';
import { npmRunEmit } from '../../src/fixtures/emit.js';
import { createTenantWithToken } from '../../src/fixtures/tenants.js';
import { signIn, useWebApp, type WebSystem } from './web-harness.js';

const WALK_MS = 300_000;

/** What is wider than the viewport: the page, or a box that scrolls sideways (none when all fits). */
const tooWide = (page: Page) =>
  page.evaluate<string[]>(
    `[
      ...(document.documentElement.scrollWidth > window.innerWidth
        ? ['page: ' + document.documentElement.scrollWidth + ' px'] : []),
      ...[...document.querySelectorAll('.table-wrap, fieldset, .card')]
        .filter((box) => box.scrollWidth > box.clientWidth + 1)
        .map((box) => box.className || box.tagName),
    ]`,
  );

/**
 * The walk a new admin takes (issue 43), at a desk (1280 px) and on a phone (390 px): sign in;
 * create, use, edit and revoke a token; connect; watch a shipment move on the live dashboard; open
 * it; inspect and redeliver a failed delivery. Each step fits the screen, no script error shows in
 * the console, and each step's screenshot is kept (test-output/web-app/walk-<width>/, CI artifacts).
 */
describe('the web app in Chromium: the admin walk', { shuffle: false }, () => {
  let web: WebSystem;
  useWebApp(
    { slug: 'webapp-walk', parcelTrackingEnv: { TRACKING_WORKER_INTERVAL_MS: '500' } },
    (app) => ({ web } = app),
  );

  const walk = async (width: number, number: string) => {
    const owner = await createTenantWithToken(web.system, { slug: `webapp-walk-${width}` });
    const origin = web.origin(owner.host);
    const key = `walk_provider_key_${width}`;
    const context = await web.browser.newContext({
      viewport: { width, height: width > 600 ? 900 : 844 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(45_000);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    let step = 0;
    const shot = async (name: string) => {
      expect(await tooWide(page), name).toEqual([]);
      step += 1;
      await page.screenshot({
        path: `${SCREENSHOT_DIR}/walk-${width}/${String(step).padStart(2, '0')}-${name}.png`,
        fullPage: true,
      });
    };
    const go = async (link: string) => {
      // At 390 px the main navigation wraps; it is the same links.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: link })
        .click();
    };

    try {
      await page.goto(`${origin}/app/`);
      await shot('sign-in');
      await signIn(page, origin, { email: owner.user.email, password: owner.password });
      await shot('home');

      // A token: created, used over HTTP, edited, revoked.
      await go('Access tokens');
      await page.getByRole('button', { name: 'New token' }).click();
      const form = page.getByRole('form', { name: 'New token' });
      await form.getByLabel('Name').fill('Walk');
      await form.getByRole('checkbox', { name: 'orders:read', exact: true }).check();
      await shot('token-form');
      await form.getByRole('button', { name: 'Create token' }).click();
      const plain = await page.getByTestId('new-token').inputValue();
      await shot('token-created');
      expect((await owner.withToken(plain)('GET', '/api/user')).status).toBe(200);
      await page.getByRole('button', { name: 'I have saved it' }).click();
      const row = page.locator(`tr[data-token-id="${plain.split('|')[0]}"]`);
      await row.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('form', { name: 'Edit token' }).getByLabel('Name').fill('Walk (edited)');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved “Walk (edited)”.').waitFor();
      await row.getByRole('button', { name: 'Revoke' }).click();
      await shot('token-revoke');
      await row.getByRole('button', { name: 'Yes, revoke' }).click();
      await row.waitFor({ state: 'detached' });
      expect((await owner.withToken(plain)('GET', '/api/user')).status).toBe(401);

      // Connect, and watch a shipment move on the dashboard without reloading it.
      web.sim.addKey({ key });
      await go('Parcel tracking');
      const connect = page.getByRole('form', { name: 'Connect parcel tracking' });
      await connect.getByLabel('Provider API key').fill(key);
      await shot('connect');
      await connect.getByRole('button', { name: 'Connect' }).click();
      const webhookUrl = await page.getByTestId('webhook-url').textContent();
      web.sim.addKey({ key, webhookUrl: `${origin}${new URL(webhookUrl!).pathname}` });
      await npmRunEmit(web.system, 'shipment.tracking_assigned', owner.tenant.slug, {
        trackable_type: 'sales_order_fulfillment',
        trackable_id: width,
        trackable_label: `SO-${width} / F1`,
        trackable_url: `/sales-orders/${width}/fulfillments/1`,
        tracking_number: number,
        sales_channel_id: 1,
        sub_channel_id: 11,
      });
      const count = (status: string) =>
        page
          .getByTestId('status-counts')
          .locator(`[data-status="${status}"]`)
          .textContent({ timeout: 1_000 });
      await expect.poll(() => count('not_found'), { timeout: 90_000 }).toBe('1');
      web.sim.advance(number);
      await expect.poll(() => count('info_received'), { timeout: 90_000 }).toBe('1');
      await shot('dashboard-live');

      // The shipment's own page, from its bucket.
      await page.getByTestId('status-counts').getByRole('link', { name: 'info received' }).click();
      await page.getByRole('link', { name: number }).click();
      await page.getByRole('list', { name: 'Inbound webhooks' }).waitFor();
      await shot('shipment');

      // A subscription whose receiver refuses: the failed delivery, inspected and redelivered.
      await go('Webhooks');
      await page.getByRole('button', { name: 'New subscription' }).click();
      const subscription = page.getByRole('form', { name: 'New subscription' });
      // Nothing listens on port 9 of the loopback: every attempt is refused.
      await subscription.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hooks/walk');
      await subscription.getByRole('checkbox', { name: 'sales_order.created' }).check();
      await subscription.getByRole('button', { name: 'Create subscription' }).click();
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await page.getByRole('link', { name: 'http://127.0.0.1:9/hooks/walk' }).click();
      await page.getByRole('button', { name: 'Send test ping' }).click();
      const failed = page.locator('[data-delivery-status="failed"]');
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            await page.locator('.deliveries, .state.empty').first().waitFor();
            return failed.count();
          },
          { timeout: 90_000 },
        )
        .toBe(1);
      await failed.getByText(/attempt/).click();
      await failed
        .getByText(/no response/)
        .first()
        .waitFor();
      await shot('delivery-failed');
      await failed.getByRole('button', { name: 'Redeliver' }).click();
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            await page.locator('.deliveries').waitFor();
            return failed.locator('summary').first().textContent();
          },
          { timeout: 90_000 },
        )
        .toMatch(/^[4-6] attempt\(s\)$/);
      await shot('delivery-redelivered');
      expect(problems.filter((text) => !/Failed to load resource/.test(text))).toEqual([]);
    } finally {
      await context.close();
    }
  };

  it('at 1280 px', () => walk(1280, '1Z999AA10123451280'), WALK_MS);
  it('at 390 px', () => walk(390, '1Z999AA10123450390'), WALK_MS);
});
