import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import { connectParcelTracking, ignoredPushes } from '../../src/fixtures/parcel-webhooks.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { seedTrackingRows } from '../parcel-tracking/harness.js';
import { BROWSER_TEST_MS, PROVIDER_KEY, useWebApp, type WebSystem } from './web-harness.js';

const PARCEL = '/app/integrations/parcel-tracking';
const NUMBERS = ['1Z999AA10123456821', '1Z999AA10123456822', '1Z999AA10123456823'];

/** The webhook log: reprocess one ignored webhook, then every failed one with its progress. */
describe('the web app in Chromium: reprocessing inbound webhooks (ADR 0230)', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp({ slug: 'webapp-reprocess', signedIn: true }, (app) => ({ web, owner, page } = app));
  const origin = () => web.origin(owner.host);

  it(
    'reprocesses one ignored row from its Reprocess action, and all failed rows with a progress bar until done',
    async () => {
      const instance = await connectParcelTracking(owner, PROVIDER_KEY, 'Parcels');
      // Pushes for numbers the instance does not track yet: ignored (unknown number).
      await ignoredPushes(web.system.gatewayUrl, owner, instance, NUMBERS);
      const events = web.system.services['webhook-ingest']!.mongo.collection('webhook_events');
      // Two of them as the job leaves a row whose apply failed every attempt.
      await events.updateMany(
        { tenant_id: owner.tenant.id, tracking_number: { $in: NUMBERS.slice(1) } },
        { $set: { result: 'failed', error_message: 'Could not be applied after 5 attempts' } },
      );
      // The numbers are tracked now.
      await seedTrackingRows(
        web.system,
        owner,
        instance.id,
        NUMBERS.map((tracking_number) => ({ tracking_number })),
      );

      await page.goto(`${origin()}${PARCEL}/webhooks`);
      const table = page.getByRole('table', { name: 'Webhook log' });
      const rowOf = (number: string) => table.getByRole('row').filter({ hasText: number });
      const resultOf = (number: string) =>
        rowOf(number).locator('td[data-label="Result"]').textContent({ timeout: 1_000 });
      await rowOf(NUMBERS[0]!).waitFor();
      expect(await resultOf(NUMBERS[0]!)).toMatch(/^ignored: /);

      await rowOf(NUMBERS[0]!)
        .getByRole('button', { name: /Reprocess webhook/ })
        .click();
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            return resultOf(NUMBERS[0]!);
          },
          { timeout: 60_000 },
        )
        .toBe('processed');
      expect(await rowOf(NUMBERS[0]!).locator('td[data-label="Attempts"]').textContent()).toBe('2');
      // A processed row offers no Reprocess action.
      expect(
        await rowOf(NUMBERS[0]!)
          .getByRole('button', { name: /Reprocess/ })
          .count(),
      ).toBe(0);

      await page.getByRole('button', { name: 'Reprocess all failed' }).click();
      const progress = page.getByTestId('reprocess-progress');
      await progress.getByText('Done: 2 of 2 reprocessed.').waitFor({ timeout: 60_000 });
      expect(await progress.locator('progress').getAttribute('value')).toBe('2');
      // The list is read again once the job completes.
      for (const number of NUMBERS.slice(1))
        await expect.poll(() => resultOf(number), { timeout: 30_000 }).toBe('processed');
      await screenshot(page, 'parcel-webhooks-reprocessed');
    },
    BROWSER_TEST_MS,
  );
});
