import { seedSalesChannels } from '@inventory/parcel-tracking/dev';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { BROWSER_TEST_MS, PROVIDER_KEY, useWebApp, type WebSystem } from './web-harness.js';

/** Integrations → Parcel tracking: test key, connect, settings, activity, trackings, disconnect. */
describe('the web app in Chromium: parcel tracking', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp({ slug: 'webapp-parcel', signedIn: true }, (app) => ({ web, owner, page } = app));
  const origin = () => web.origin(owner.host);

  it(
    'tests a key, connects parcel tracking, edits settings, reads activity, disconnects',
    async () => {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Parcel tracking' })
        .click();
      const connect = page.getByRole('form', { name: 'Connect parcel tracking' });
      await connect.getByLabel('Provider API key').fill('short');
      await connect.getByRole('button', { name: 'Test key' }).click();
      await connect.locator('input[name="api_key"][aria-invalid="true"]').waitFor();
      await connect.getByLabel('Provider API key').fill(PROVIDER_KEY);
      await connect.getByRole('button', { name: 'Test key' }).click();
      await connect.getByText(/Quota: \d+ of \d+ used/).waitFor();
      await connect.getByRole('button', { name: 'Connect' }).click();

      await page.getByRole('heading', { name: 'Quota' }).waitFor();
      // The app finds the instance as any client can: the tenant's list of 0 or 1.
      const listed = await owner.request('GET', '/api/integrations/parcel-tracking/instances');
      const instanceId = String(listed.body.data[0].id);
      await page.getByText(/Alert at 80%/).waitFor();
      expect(await page.getByTestId('status-counts').locator('li').count()).toBe(10);
      expect(await page.getByTestId('webhook-url').textContent()).toMatch(/\/webhooks\/.+\/wh_/);
      await screenshot(page, 'parcel-dashboard');

      await page.getByRole('link', { name: 'Settings' }).click();
      const settings = page.getByRole('form', { name: 'Parcel tracking settings' });
      // Sales channels arrive as events; the settings show them as a tree once projected.
      await seedSalesChannels({ natsUrl: web.system.infra.natsUrl, tenantId: owner.tenant.id });
      await expect
        .poll(
          async () => {
            await page.reload();
            await settings.getByText(/No sales channels connected|Amazon US/).waitFor();
            return settings.getByLabel(/Fulfilled by Merchant/).count();
          },
          { timeout: 90_000 },
        )
        .toBe(1);
      await settings.getByLabel(/^Default/).selectOption('none');
      await settings.getByLabel(/^Amazon US/).selectOption('on');
      await settings.getByLabel(/Fulfilled by Merchant/).selectOption('off');
      await settings.getByRole('checkbox', { name: 'RMAs' }).uncheck();
      await settings.getByLabel(/Quota alert threshold/).fill('150');
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await settings.locator('input[name="quota_alert_threshold"][aria-invalid="true"]').waitFor();
      await settings.getByLabel(/Quota alert threshold/).fill('90');
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await settings.getByText('Settings saved.').waitFor();
      const saved = await owner.request(
        'GET',
        `/api/integrations/parcel-tracking/instances/${instanceId}`,
      );
      expect(saved.body.data.auto_track_channels).toEqual({
        default: 'none',
        channels: { '2': { enabled: true, sub_channels: { '202': false } } },
      });
      expect(saved.body.data.auto_track.rmas).toBe(false);
      expect(saved.body.data.quota_alert_threshold).toBe(90);

      // Stalled and late shipments: a refused threshold is marked on its field; a carrier's own
      // threshold and the switches are saved as typed.
      const stalledAfter = settings.getByLabel(/^Stalled after \(hours without/);
      await stalledAfter.fill('800');
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await settings
        .locator('input[name="shipment_watch.stalled_after_hours"][aria-invalid="true"]')
        .waitFor();
      await stalledAfter.fill('96');
      await settings.getByRole('button', { name: 'Add a carrier threshold' }).click();
      await settings.getByLabel('Carrier 1 (code)').fill('100002');
      await settings.getByLabel('Carrier 1 stalled after (hours)').fill('24');
      await settings
        .getByRole('checkbox', {
          name: 'Alert once when a shipment is past its estimated delivery',
        })
        .uncheck();
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await expect
        .poll(
          async () =>
            (
              await owner.request(
                'GET',
                `/api/integrations/parcel-tracking/instances/${instanceId}`,
              )
            ).body.data.shipment_watch,
          { timeout: 30_000 },
        )
        .toEqual({
          stalled_after_hours: 96,
          carrier_stalled_after_hours: [{ carrier_code: 100002, hours: 24 }],
          stalled_alert: true,
          late_alert: false,
        });
      await screenshot(page, 'parcel-settings');
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await page.getByText(/Alert at 90%/).waitFor();

      await page.getByRole('link', { name: 'Activity' }).click();
      const activity = page.getByRole('table', { name: 'Activity' });
      await expect
        .poll(
          async () => {
            await page.reload();
            return activity.or(page.getByText('No activity yet.')).textContent();
          },
          { timeout: 90_000 },
        )
        .toContain('updated');
      expect(await activity.textContent()).toContain('connected');
      await screenshot(page, 'parcel-activity');

      // Filters live in the page URL as the API's own query: a shared link shows the same rows.
      await page.goto(
        `${origin()}/app/integrations/parcel-tracking/activity?filter%5Bevent_type%5D=updated&sort=-created_at`,
      );
      await activity.getByText('updated').first().waitFor();
      expect(await activity.textContent()).not.toContain('connected');
      expect(await page.getByLabel('Events').inputValue()).toBe('updated');
      await page.getByLabel('Sort').selectOption('created_at');
      await page.waitForURL(/sort=created_at/);
      expect(page.url()).toContain('filter%5Bevent_type%5D=updated');

      // The trackings and webhook-log routes land separately; the page shows data or an error state.
      await page.getByRole('link', { name: 'Trackings' }).click();
      await page
        .getByRole('table', { name: 'Trackings' })
        .or(page.getByText('No shipments are tracked yet.'))
        .or(page.getByRole('alert'))
        .waitFor();
      await page.getByLabel('Tracking number').fill('1Z');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/filter%5Bsearch%5D=1Z|filter\[search\]=1Z/);
      // The filters in force show as chips; a page size and Clear all are in the URL too.
      const chips = page.getByRole('list', { name: 'Active filters' });
      await chips.getByText('Tracking number: 1Z').waitFor();
      await page.getByLabel('Per page').selectOption('50');
      await page.waitForURL(/per_page=50/);
      await screenshot(page, 'parcel-trackings');
      await chips.getByRole('button', { name: 'Clear all' }).click();
      await chips.waitFor({ state: 'detached' });
      expect(page.url()).not.toContain('filter');
      expect(await page.getByLabel('Tracking number').inputValue()).toBe('');

      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page.getByRole('button', { name: 'Yes, disconnect' }).click();
      await page.getByRole('form', { name: 'Connect parcel tracking' }).waitFor();
    },
    BROWSER_TEST_MS,
  );
});
