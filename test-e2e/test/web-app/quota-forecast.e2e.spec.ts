import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { forecastRegistrationTimes, seedTrackingRows } from '../parcel-tracking/harness.js';
import { BROWSER_TEST_MS, PROVIDER_KEY, useWebApp, type WebSystem } from './web-harness.js';

/** The parcel dashboard's quota forecast (ADR 0235) and its alert setting. */
describe('the web app in Chromium: quota forecast', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp(
    // The workers stay off: the seeded rows keep their registration times.
    {
      slug: 'webapp-forecast',
      signedIn: true,
      parcelTrackingEnv: { TRACKING_WORKER_INTERVAL_MS: '0' },
    },
    (app) => ({ web, owner, page } = app),
  );

  it(
    'shows the days left and the date the quota runs out, and sets the forecast alert',
    async () => {
      const connected = await owner.request('POST', '/api/integrations/parcel-tracking/instances', {
        name: 'Parcel tracking',
        api_key: PROVIDER_KEY,
      });
      expect(connected.status).toBe(201);
      const id = connected.body.data.id;
      // 28 registrations over the last 13 to 14 days: 2 to 2.15 a day.
      const times = forecastRegistrationTimes(28);
      await seedTrackingRows(
        web.system,
        owner,
        id,
        Array.from({ length: 28 }, (_, i) => ({
          tracking_number: `FORECAST${String(i).padStart(6, '0')}`,
          trackable_id: i + 1,
          delivery_status: 'in_transit',
          registered_at: times[i],
        })),
      );
      const answer = await owner.request(
        'GET',
        `/api/integrations/parcel-tracking/instances/${id}`,
      );
      const forecast = answer.body.data.quota_forecast;
      expect(forecast.daily_rate).toBeGreaterThanOrEqual(2);
      expect(forecast.days_left).toBeLessThanOrEqual(
        Math.floor(answer.body.data.quota.remaining / 2),
      );

      await page.goto(`${web.origin(owner.host)}/app/integrations/parcel-tracking`);
      const shown = page.getByTestId('quota-forecast');
      await shown.getByText(`${forecast.days_left} days`).waitFor();
      expect(await shown.locator('time').getAttribute('datetime')).toBe(forecast.exhausted_on);
      expect(await shown.textContent()).toContain(
        `${forecast.daily_rate} a day over the last 14 days`,
      );
      expect(await shown.locator('[data-count="units-saved"]').textContent()).toBe('0');
      await screenshot(page, 'parcel-quota-forecast');

      await page.getByRole('link', { name: 'Settings' }).click();
      const settings = page.getByRole('form', { name: 'Parcel tracking settings' });
      await settings.getByLabel(/Quota forecast alert/).fill('400');
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await settings
        .locator('input[name="quota_forecast_alert_days"][aria-invalid="true"]')
        .waitFor();
      await settings.getByLabel(/Quota forecast alert/).fill('30');
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await settings.getByText('Settings saved.').waitFor();
      const saved = await owner.request('GET', `/api/integrations/parcel-tracking/instances/${id}`);
      expect(saved.body.data.quota_forecast_alert_days).toBe(30);
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await page
        .getByTestId('quota-forecast')
        .getByText(/Alert under 30 days left/)
        .waitFor();
    },
    BROWSER_TEST_MS,
  );
});
