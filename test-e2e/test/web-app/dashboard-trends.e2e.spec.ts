import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { seedTrackingRows } from '../parcel-tracking/harness.js';
import { BROWSER_TEST_MS, PROVIDER_KEY, useWebApp, type WebSystem } from './web-harness.js';

const DAY = 24 * 3600 * 1000;
const dateOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The parcel dashboard's trends: shipments registered and delivered per day, 30 days. */
describe('the web app in Chromium: dashboard trends', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp(
    // The workers stay off: the seeded rows keep their dates.
    {
      slug: 'webapp-trends',
      signedIn: true,
      parcelTrackingEnv: { TRACKING_WORKER_INTERVAL_MS: '0' },
    },
    (app) => ({ web, owner, page } = app),
  );

  it(
    'charts shipments registered and delivered per day with dates, axes and a legend',
    async () => {
      const connected = await owner.request('POST', '/api/integrations/parcel-tracking/instances', {
        name: 'Parcel tracking',
        api_key: PROVIDER_KEY,
      });
      expect(connected.status).toBe(201);
      const now = Date.now();
      const today = Date.UTC(
        new Date(now).getUTCFullYear(),
        new Date(now).getUTCMonth(),
        new Date(now).getUTCDate(),
      );
      const noon = (daysAgo: number) => new Date(today - daysAgo * DAY + 12 * 3600_000);
      await seedTrackingRows(web.system, owner, connected.body.data.id, [
        { tracking_number: 'R1', delivery_status: 'in_transit', registered_at: noon(2) },
        { tracking_number: 'R2', delivery_status: 'in_transit', registered_at: noon(2) },
        {
          tracking_number: 'D1',
          delivery_status: 'delivered',
          registered_at: noon(6),
          delivered_at: noon(2),
        },
      ]);

      await page.goto(`${web.origin(owner.host)}/app/integrations/parcel-tracking`);
      const chart = page.getByRole('figure', { name: 'Shipments per day' });
      const days = chart.getByRole('list', { name: 'Shipments per day' }).locator('li');
      await expect.poll(() => days.count(), { timeout: 45_000 }).toBe(30);
      // Each day is read out: two days ago holds both registrations and the delivery.
      expect(await days.nth(27).textContent()).toBe(
        `${dateOf(today - 2 * DAY)}: 2 registered, 1 delivered`,
      );
      expect(await days.nth(23).textContent()).toBe(
        `${dateOf(today - 6 * DAY)}: 1 registered, 0 delivered`,
      );
      expect(await chart.locator('.legend li').allTextContents()).toEqual([
        ' Registered',
        ' Delivered',
      ]);
      expect(await chart.locator('.x-axis span').allTextContents()).toEqual([
        dateOf(today - 29 * DAY),
        dateOf(today),
      ]);
      expect(await chart.locator('.y-axis span').allTextContents()).toEqual(['2', '0']);
      await screenshot(page, 'parcel-dashboard-trends');
    },
    BROWSER_TEST_MS,
  );
});
