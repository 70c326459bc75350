import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import { BROWSER_TEST_MS, useWebApp, type WebSystem } from './web-harness.js';

/** Webhooks: a subscription, its test ping delivered, redelivery, edit, rotate, delete. */
describe('the web app in Chromium: webhook subscriptions', () => {
  let web: WebSystem;
  let page: Page;
  useWebApp({ slug: 'webapp-webhooks', signedIn: true }, (app) => ({ web, page } = app));

  /** The delivery log read again, then how many of its deliveries `locator` finds. */
  const refreshedCount = async (locator: Locator) => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('.deliveries, .state.empty').first().waitFor();
    return locator.count();
  };

  it(
    'creates a webhook subscription (secret once), sends a test ping and sees it delivered',
    async () => {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Webhooks' })
        .click();
      await page.getByRole('button', { name: 'New subscription' }).click();
      const form = page.getByRole('form', { name: 'New subscription' });
      await form.getByLabel('Endpoint URL').fill(`${web.receiverUrl}/hooks/orders`);
      await form.getByRole('checkbox', { name: 'sales_order.created' }).check();
      await form.getByRole('button', { name: 'Create subscription' }).click();
      const createdSecret = await page.getByTestId('signing-secret').inputValue();
      expect(createdSecret).toMatch(/^whsec_/);
      await screenshot(page, 'webhooks-created');
      await page.getByRole('button', { name: 'I have saved it' }).click();

      await page.getByRole('link', { name: `${web.receiverUrl}/hooks/orders` }).click();
      await page.getByRole('button', { name: 'Send test ping' }).click();
      await page.getByText('Test ping queued.').waitFor();
      const delivered = page.locator('[data-delivery-status="succeeded"]');
      await expect.poll(() => refreshedCount(delivered), { timeout: 90_000 }).toBeGreaterThan(0);
      expect(web.received).toContain('/hooks/orders');
      await delivered
        .first()
        .getByText(/attempt/)
        .click();
      await delivered
        .first()
        .getByText(/200 in \d+ ms/)
        .waitFor();
      await screenshot(page, 'webhook-deliveries');

      // Redeliver: the same delivery is sent again, a second attempt in its log.
      await delivered.first().getByRole('button', { name: 'Redeliver' }).click();
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            await page.locator('.deliveries').waitFor();
            return page.locator('[data-delivery-status="succeeded"] summary').first().textContent();
          },
          { timeout: 90_000 },
        )
        .toBe('2 attempt(s)');
      expect(web.received.filter((path) => path === '/hooks/orders')).toHaveLength(2);

      // Disable and re-enable, edit, rotate the secret (shown once), delete.
      const summary = page.getByTestId('subscription-summary');
      await page.getByRole('button', { name: 'Disable' }).click();
      await summary.getByText(/^Disabled/).waitFor();
      // Its health says who switched it off, and how its deliveries went.
      const state = page.getByTestId('subscription-state');
      await expect.poll(() => state.textContent()).toBe('Disabled by a user.');
      await page.getByRole('button', { name: 'Re-enable' }).click();
      await summary.getByText(/^Active/).waitFor();
      await expect.poll(() => state.textContent()).toBe('Active');
      // The service's figures over both windows: the ping and its redelivery, both answered 200.
      await expect
        .poll(() => page.getByTestId('success-rate').textContent())
        .toBe('100% of 2 attempts');
      await expect
        .poll(() => page.getByTestId('success-rate-7d').textContent())
        .toBe('100% of 2 attempts');
      await screenshot(page, 'webhook-subscription-health');
      // Pause: a ping sent meanwhile is held, not sent; resume sends it.
      await page.getByRole('button', { name: 'Pause' }).click();
      await summary.getByText(/\(paused\)/).waitFor();
      const pause = page.getByTestId('subscription-pause');
      await expect.poll(() => pause.textContent()).toMatch(/^since .*, 0 held; resumes by itself/);
      await page.getByRole('button', { name: 'Send test ping' }).click();
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            return page.locator('[data-delivery-status="held"]').count();
          },
          { timeout: 90_000 },
        )
        .toBe(1);
      const pings = () => web.received.filter((path) => path === '/hooks/orders').length;
      expect(pings()).toBe(2);
      await screenshot(page, 'webhook-subscription-paused');
      await page.getByRole('button', { name: 'Resume' }).click();
      await expect.poll(() => pings(), { timeout: 90_000 }).toBe(3);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => pause.textContent()).toMatch(/^(no|resuming: 0 held)/);
      // Recover: nothing failed, so the job finds nothing and completes.
      await page.getByLabel('Failed since').fill('2020-01-01T00:00');
      await page.getByRole('button', { name: 'Recover', exact: true }).click();
      const progress = page.getByTestId('recover-progress');
      await expect.poll(() => progress.textContent()).toMatch(/^(Running|Completed): 0 found/);
      await expect
        .poll(async () => {
          await page.getByRole('button', { name: 'Refresh progress' }).click();
          return progress.textContent();
        })
        .toMatch(/^Completed: 0 found, 0 sent again/);
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Description (optional)').fill('Orders feed');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await summary.getByText(/Orders feed/).waitFor();
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('button', { name: 'Yes, rotate' }).click();
      // The creation secret was dismissed; this is the rotated one, shown once.
      const rotatedSecret = await page.getByTestId('signing-secret').inputValue();
      expect(rotatedSecret).toMatch(/^whsec_/);
      expect(rotatedSecret).not.toBe(createdSecret);
      await page.getByText(/previous secret keeps working until/).waitFor();
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      await page.getByText('No subscriptions yet.').waitFor();
    },
    BROWSER_TEST_MS,
  );
  it(
    'filters by content, shows a delivery’s payload and each request (redacted), and finds a delivery by id',
    async () => {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Webhooks' })
        .click();
      await page.getByRole('button', { name: 'New subscription' }).click();
      const form = page.getByRole('form', { name: 'New subscription' });
      await form.getByLabel('Endpoint URL').fill(`${web.receiverUrl}/hooks/acme?token=s3cret`);
      await form.getByRole('checkbox', { name: 'product.created' }).check();
      // Text that is not JSON is named at the field, and nothing is sent.
      await form.getByLabel('Content filter (optional)').fill('{"sku": ');
      await form.getByRole('button', { name: 'Create subscription' }).click();
      await form.getByText('The filter must be JSON.').waitFor();
      // The service's rule names the bad part.
      await form.getByLabel('Content filter (optional)').fill('{"sku": {"$regex": "^A"}}');
      await form.getByRole('button', { name: 'Create subscription' }).click();
      await form.getByText(/\$regex at filter\.sku is not supported/).waitFor();
      await form.getByLabel('Content filter (optional)').fill('{"sku": {"$startsWith": "ACME-"}}');
      await form.getByRole('button', { name: 'Create subscription' }).click();
      await page.getByTestId('signing-secret').waitFor();
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await page.getByRole('link', { name: /\/hooks\/acme/ }).click();
      await expect
        .poll(() => page.getByTestId('subscription-filter').textContent())
        .toBe('{"sku":{"$startsWith":"ACME-"}}');

      await page.getByRole('button', { name: 'Send test ping' }).click();
      const delivered = page.locator('[data-delivery-status="succeeded"]');
      await expect.poll(() => refreshedCount(delivered), { timeout: 90_000 }).toBe(1);
      await delivered.getByText(/attempt/).click();
      const payload = delivered.getByTestId('delivery-payload');
      await expect.poll(() => payload.textContent()).toMatch(/^\{"event":"ping"/);
      const request = await delivered.getByTestId('attempt-request').textContent();
      expect(request).toContain(`POST ${web.receiverUrl}/hooks/acme?token=%5Bredacted%5D`);
      expect(request).toMatch(/X-SVC-Signature: sha256=\[redacted\]/);
      expect(request).not.toContain('s3cret');
      await screenshot(page, 'webhook-delivery-request');

      // One delivery by its id; an unknown id finds nothing; the event filter hides the ping.
      const deliveryId = (await delivered.locator('small code').textContent())!;
      await page.getByLabel('Delivery id').fill(deliveryId);
      await page.getByRole('button', { name: 'Find' }).click();
      await expect.poll(() => page.locator('.deliveries > li').count()).toBe(1);
      await page.getByLabel('Delivery id').fill('00000000-0000-4000-8000-000000000000');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByText('No delivery of this subscription has that id.').waitFor();
      await page.getByRole('button', { name: 'Show all' }).click();
      await page.getByLabel('Event').selectOption('product.created');
      await page.getByText('No deliveries yet.').waitFor();
      await page.getByLabel('Event').selectOption('ping');
      await expect.poll(() => page.locator('.deliveries > li').count()).toBe(1);
    },
    BROWSER_TEST_MS,
  );
});
