import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { seedTrackingRows } from '../parcel-tracking/harness.js';
import { BROWSER_TEST_MS, PROVIDER_KEY, useWebApp, type WebSystem } from './web-harness.js';

const PARCEL = '/app/integrations/parcel-tracking';

/** The filters a person uses by name: carriers on the trackings list. */
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
      await expect.poll(async () => (await numbers(table)).length).toBe(4);
      const carrier = page.getByLabel('Carrier', { exact: true });
      await expect
        .poll(() => carrier.locator('option').allTextContents())
        .toEqual(['UPS (100002)', 'FedEx (100003)']);
      await carrier.selectOption({ label: 'FedEx (100003)' });
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect.poll(() => numbers(table)).toEqual(['FDX0001']);
      expect(new URL(page.url()).searchParams.get('filter[carrier_code]')).toBe('100003');
      const chips = page.getByRole('list', { name: 'Active filters' });
      await chips.getByText('Carrier: FedEx (100003)').waitFor();
      await screenshot(page, 'parcel-trackings-by-carrier');

      await carrier.selectOption([{ label: 'UPS (100002)' }, { label: 'FedEx (100003)' }]);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect
        .poll(async () => (await numbers(table)).sort())
        .toEqual(['FDX0001', 'UPS0001', 'UPS0002']);
      await chips.getByText('Carrier: UPS (100002), FedEx (100003)').waitFor();
    },
    BROWSER_TEST_MS,
  );
});
