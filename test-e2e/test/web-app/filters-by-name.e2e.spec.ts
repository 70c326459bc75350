import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import { createUserWithToken, type TenantFixture } from '../../src/fixtures/tenants.js';
import { seedTrackingRows } from '../parcel-tracking/harness.js';
import { BROWSER_TEST_MS, PROVIDER_KEY, useWebApp, type WebSystem } from './web-harness.js';

const PARCEL = '/app/integrations/parcel-tracking';
/** How long a poll of the page may take on a busy machine. */
const POLL = { timeout: 45_000 };

/** The filters a person uses by name: carriers on the trackings list, people on the activity. */
describe('the web app in Chromium: filters by name', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp(
    // The workers stay off: the seeded rows keep the carriers they were given.
    {
      slug: 'webapp-filters',
      signedIn: true,
      parcelTrackingEnv: { TRACKING_WORKER_INTERVAL_MS: '0' },
    },
    (app) => ({ web, owner, page } = app),
  );
  const origin = () => web.origin(owner.host);
  const numbers = (table: ReturnType<Page['getByRole']>) =>
    table.locator('tbody tr code.tracking-number').allTextContents();

  it(
    'offers the carriers the instance has seen by name and narrows the trackings to the chosen one',
    async () => {
      const connected = await owner.request('POST', '/api/integrations/parcel-tracking/instances', {
        name: 'Parcel tracking',
        api_key: PROVIDER_KEY,
      });
      expect(connected.status).toBe(201);
      const registered = { delivery_status: 'in_transit', registered_at: new Date() };
      await seedTrackingRows(web.system, owner, connected.body.data.id, [
        { tracking_number: 'UPS0001', carrier_code: 100002, carrier_name: 'UPS', ...registered },
        { tracking_number: 'UPS0002', carrier_code: 100002, carrier_name: 'UPS', ...registered },
        { tracking_number: 'FDX0001', carrier_code: 100003, carrier_name: 'FedEx', ...registered },
        { tracking_number: 'NONE0001' },
      ]);

      await page.goto(`${origin()}${PARCEL}/trackings`);
      const table = page.getByRole('table', { name: 'Trackings' });
      await expect.poll(async () => (await numbers(table)).length, POLL).toBe(4);
      const carrier = page.getByLabel('Carrier', { exact: true });
      await expect
        .poll(() => carrier.locator('option').allTextContents(), POLL)
        .toEqual(['UPS (100002)', 'FedEx (100003)']);
      await carrier.selectOption({ label: 'FedEx (100003)' });
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect.poll(() => numbers(table), POLL).toEqual(['FDX0001']);
      expect(new URL(page.url()).searchParams.get('filter[carrier_code]')).toBe('100003');
      const chips = page.getByRole('list', { name: 'Active filters' });
      await chips.getByText('Carrier: FedEx (100003)').waitFor();
      await screenshot(page, 'parcel-trackings-by-carrier');

      await carrier.selectOption([{ label: 'UPS (100002)' }, { label: 'FedEx (100003)' }]);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect
        .poll(async () => (await numbers(table)).sort(), POLL)
        .toEqual(['FDX0001', 'UPS0001', 'UPS0002']);
      await chips.getByText('Carrier: UPS (100002), FedEx (100003)').waitFor();
    },
    BROWSER_TEST_MS,
  );

  it(
    'shows who did what by name in the activity, and narrows it to the person chosen',
    async () => {
      // The owner (signed in, "Test User") connected; a second member changes a setting.
      const max = await createUserWithToken(web.system, owner.tenant, {
        userName: 'Max Mustermann',
      });
      const listed = await owner.request('GET', '/api/integrations/parcel-tracking/instances');
      const instanceId = listed.body.data[0].id as number;
      const patched = await max.request(
        'PATCH',
        `/api/integrations/parcel-tracking/instances/${instanceId}`,
        { quota_alert_threshold: 70 },
      );
      expect(patched.status).toBe(200);

      await page.goto(`${origin()}${PARCEL}/activity`);
      const activity = page.getByRole('table', { name: 'Activity' });
      const users = () => activity.locator('td[data-label="User"]').allTextContents();
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            return [...new Set(await users())].sort();
          },
          { timeout: 90_000 },
        )
        .toEqual(expect.arrayContaining(['Max Mustermann', 'Test User']));
      const user = page.getByLabel('User', { exact: true });
      await user.selectOption({ label: 'Max Mustermann' });
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect.poll(async () => [...new Set(await users())], POLL).toEqual(['Max Mustermann']);
      expect(new URL(page.url()).searchParams.get('filter[causer_id]')).toBe(String(max.user.id));
      await page
        .getByRole('list', { name: 'Active filters' })
        .getByText('User: Max Mustermann')
        .waitFor();
      await screenshot(page, 'parcel-activity-by-user');
    },
    BROWSER_TEST_MS,
  );
});
