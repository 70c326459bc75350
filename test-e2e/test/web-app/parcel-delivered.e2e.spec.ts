import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import { npmRunEmit } from '../../src/fixtures/emit.js';
import { httpCall } from '../../src/fixtures/http.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { PROVIDER_KEY, signIn, useWebApp, type WebSystem } from './web-harness.js';

const BROWSER_TEST_MS = 240_000;
const NUMBER = '1Z999AA10123456790';
/** The simulator never detects a carrier for these (README of tools/provider-sim). */
const UNDETECTABLE = 'UNDETECTABLE0702';
const PARCEL = '/app/integrations/parcel-tracking';
/** The trackings table's columns, in order (apps/web/src/pages/parcel/lists.tsx). */
const COLUMNS = [
  'Tracking number',
  'For',
  'Carrier',
  'Registered',
  'Status',
  'Latest event',
  'Last event',
  'Estimated',
  'Delivered',
];

/**
 * What is wider than the viewport: the page itself or a table inside its scroll box
 * (an empty list when everything fits).
 */
const tooWide = (page: Page) =>
  // A string: this project's TypeScript has no DOM types; Chromium evaluates it.
  page.evaluate<string[]>(
    `[
      ...(document.documentElement.scrollWidth > window.innerWidth
        ? ['page: ' + document.documentElement.scrollWidth + ' px'] : []),
      ...[...document.querySelectorAll('.table-wrap')]
        .filter((wrap) => wrap.scrollWidth > wrap.clientWidth)
        .map((wrap) => (wrap.querySelector('table')?.getAttribute('aria-label') ?? 'table') +
          ': ' + wrap.scrollWidth + ' > ' + wrap.clientWidth + ' px'),
    ]`,
  );

// One person's journey, in order: connect, watch the shipment move, read the log.
describe(
  'parcel tracking in the web app: a shipment emitted over NATS reaches delivered',
  { shuffle: false },
  () => {
    let web: WebSystem;
    let owner: TenantFixture;
    let page: Page;
    const browserErrors: string[] = [];

    useWebApp(
      {
        slug: 'webapp-parcels',
        parcelTrackingEnv: {
          // Registration (and a fresh row's first poll) runs soon after the emit.
          TRACKING_WORKER_INTERVAL_MS: '500',
          // The dashboard reads the provider's quota on every visit (the unavailable state below).
          QUOTA_CACHE_TTL_MS: '0',
        },
      },
      (app) => ({ web, owner, page } = app),
    );

    beforeAll(() => {
      page.on('console', (message) => {
        if (message.type() === 'error') browserErrors.push(message.text());
      });
      page.on('pageerror', (error) => browserErrors.push(error.message));
    });

    const origin = () => web.origin(owner.host);

    /** Presses the list's Refresh until `read` gives what is expected (the page is never reloaded). */
    const refreshUntil = async (read: () => Promise<unknown>, expected: unknown) =>
      expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            return read();
          },
          { timeout: 90_000 },
        )
        .toEqual(expected);

    it(
      'connects with the provider key, then shows the emitted shipment registered and moving to delivered',
      async () => {
        await signIn(page, origin(), { email: owner.user.email, password: owner.password });
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Parcel tracking' })
          .click();
        const connect = page.getByRole('form', { name: 'Connect parcel tracking' });
        await connect.getByLabel('Provider API key').fill(PROVIDER_KEY);
        await connect.getByRole('button', { name: 'Connect' }).click();
        const webhookUrl = await page.getByTestId('webhook-url').textContent();
        // The provider pushes every status change to the URL the dashboard shows.
        web.sim.addKey({
          key: PROVIDER_KEY,
          webhookUrl: `${origin()}${new URL(webhookUrl!).pathname}`,
        });

        await page.getByRole('link', { name: 'Trackings' }).click();
        await page.getByText('No shipments are tracked yet.').waitFor();
        await screenshot(page, 'parcel-trackings-empty');

        // Two shipments: one the provider accepts, one whose carrier it cannot detect.
        for (const [id, number] of [
          [702, NUMBER],
          [703, UNDETECTABLE],
        ] as const) {
          const emitted = await npmRunEmit(
            web.system,
            'shipment.tracking_assigned',
            owner.tenant.slug,
            {
              trackable_type: 'sales_order_fulfillment',
              trackable_id: id,
              trackable_label: `SO-${id} / F1`,
              trackable_url: `/sales-orders/${id}/fulfillments/1`,
              tracking_number: number,
              sales_channel_id: 1,
              sub_channel_id: 11,
            },
          );
          expect(emitted).toMatchObject({ tenant_id: owner.tenant.id });
        }
        const table = page.getByRole('table', { name: 'Trackings' });
        const rowOf = (number: string): Locator =>
          table.getByRole('row').filter({ hasText: number });
        const row = rowOf(NUMBER);
        const cellOf = (of: Locator, column: string) =>
          of.locator('td').nth(COLUMNS.indexOf(column)).textContent({ timeout: 1_000 });
        const cell = (column: string) => cellOf(row, column);
        // Registered: the Registered column turns from "pending" into a date.
        await expect
          .poll(
            async () => {
              await page.getByRole('button', { name: 'Refresh' }).click();
              return (await row.count()) ? cell('Registered') : 'no row';
            },
            { timeout: 90_000 },
          )
          .toMatch(/\d/);
        expect(await cell('For')).toBe('SO-702 / F1');
        expect(await cell('Delivered')).toBe('—');

        const statusOf = () => row.locator('[data-status]').getAttribute('data-status');
        // The one poll of a fresh row finds nothing at the carrier yet; from here on (the next
        // poll is hours away) every change arrives as the provider's webhook.
        await refreshUntil(statusOf, 'not_found');
        expect(await row.locator('[data-status]').textContent()).toBe('Not Found');
        for (const status of ['info_received', 'in_transit', 'out_for_delivery', 'delivered']) {
          web.sim.advance(NUMBER);
          await refreshUntil(statusOf, status);
        }
        expect(await row.locator('[data-status]').textContent()).toBe('Delivered');
        expect(await cell('Carrier')).toBe('UPS');
        expect(await cell('Delivered')).toMatch(/\d/);
        // The refused one says so, with the provider's reason where the latest event would be.
        const refused = rowOf(UNDETECTABLE);
        expect(await cellOf(refused, 'Registered')).toBe('failed');
        expect(await cellOf(refused, 'Latest event')).toMatch(/carrier/i);
        expect(await refused.locator('[data-status]').getAttribute('data-status')).toBe('pending');
        await screenshot(page, 'parcel-trackings-delivered');
        // At phone width nothing scrolls sideways: each row is a card of labelled cells.
        await page.setViewportSize({ width: 390, height: 844 });
        expect(await tooWide(page)).toEqual([]);
        await row.getByText('Delivered', { exact: true }).first().waitFor();
        await page.setViewportSize({ width: 1280, height: 900 });

        // The status filter is the API's, in the URL: a shared link shows the same rows.
        await page.getByLabel('Status').selectOption(['delivered']);
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await page.waitForURL(/filter%5Bdelivery_status%5D=delivered/);
        await row.waitFor();
        await page.goto(`${origin()}${PARCEL}/trackings?filter%5Bdelivery_status%5D=in_transit`);
        await page.getByText('Nothing matches these filters.').waitFor();
        expect(await table.count()).toBe(0);

        // The shipment's own page: status and sub-status, carrier, latest event, its record, and
        // the provider's pushes about it.
        await page.goto(`${origin()}${PARCEL}/trackings`);
        await row.getByRole('link', { name: NUMBER }).click();
        const facts = page.getByRole('region', { name: new RegExp(NUMBER) });
        await facts.waitFor();
        expect(await facts.locator('[data-status]').textContent()).toBe('Delivered');
        expect(await facts.locator('.badge').getAttribute('class')).toContain('color-green');
        expect(await page.getByTestId('sub-status').textContent()).not.toBe('—');
        expect(await facts.getByText('UPS').count()).toBe(1);
        expect(await facts.getByRole('link', { name: 'SO-702 / F1' }).getAttribute('href')).toBe(
          '/sales-orders/702/fulfillments/1',
        );
        // Every carrier checkpoint the pushes carried, newest first, each once.
        const checkpoints = page.getByRole('list', { name: 'Checkpoints' });
        await checkpoints.waitFor();
        expect(
          await checkpoints
            .getByRole('listitem')
            .evaluateAll((items) => items.map((item) => item.getAttribute('data-status'))),
        ).toEqual(['delivered', 'out_for_delivery', 'in_transit', 'info_received']);
        const pushes = page.getByRole('list', { name: 'Inbound webhooks' });
        await pushes.waitFor();
        expect(await pushes.getByRole('listitem').count()).toBe(4);
        expect(await page.title()).toMatch(/^Shipment #\d+ · Parcel tracking · Inventory$/);
        await screenshot(page, 'parcel-shipment');
      },
      BROWSER_TEST_MS,
    );

    it(
      'shows the pushes in the webhook log and the delivery on the dashboard, and an unreadable quota as such',
      async () => {
        await page.goto(`${origin()}${PARCEL}/webhooks?sort=received_at`);
        const log = page.getByRole('table', { name: 'Webhook log' });
        await log.waitFor();
        const changes = await log.locator('tbody tr td:nth-child(4)').allTextContents();
        // One row per push, oldest first, each <status_from> → <status_to>.
        expect(changes).toEqual([
          'not_found → info_received',
          'info_received → in_transit',
          'in_transit → out_for_delivery',
          'out_for_delivery → delivered',
        ]);
        expect(await log.locator('tbody tr td:nth-child(5)').allTextContents()).toEqual(
          Array(4).fill('processed'),
        );
        await screenshot(page, 'parcel-webhook-log');

        await page.getByRole('link', { name: 'Dashboard' }).click();
        const counts = page.getByTestId('status-counts');
        await counts.waitFor();
        expect(await counts.locator('[data-status="delivered"]').textContent()).toBe('1');
        // The refused shipment stays pending, but is not waiting for registration: it failed.
        expect(await counts.locator('[data-status="pending"]').textContent()).toBe('1');
        await page.getByText('Pending registrations: 0').waitFor();
        // Neither shipment is stalled or late (ADR 0218); each count links to its filtered list.
        expect(await page.getByTestId('watch-counts').textContent()).toBe('Stalled: 0 · Late: 0');
        const registrationErrors = page.getByRole('region', { name: 'Registration errors' });
        expect(await registrationErrors.getByRole('listitem').allTextContents()).toEqual([
          expect.stringMatching(/carrier.* — 1× \(last .*\d.*\)$/i),
        ]);
        const transit = page.getByRole('region', { name: /^Transit/ });
        const ups = transit
          .getByRole('row')
          .filter({ has: page.getByRole('rowheader', { name: 'UPS' }) });
        expect(await ups.locator('td').allTextContents()).toEqual([
          '1',
          expect.stringMatching(/^\d+\.\d days$/),
          // Delivered on the day the carrier estimated: on time, as a percentage with its counts.
          '100% (1 of 1)',
        ]);
        await screenshot(page, 'parcel-dashboard-delivered');
        // At phone width the dashboard and the open alerts panel stay inside the screen.
        await page.setViewportSize({ width: 390, height: 844 });
        expect(await tooWide(page)).toEqual([]);
        await page.getByRole('button', { name: /^Alerts/ }).click();
        const panel = await page.getByRole('region', { name: 'Alerts' }).boundingBox();
        expect(panel!.x).toBeGreaterThanOrEqual(0);
        expect(panel!.x + panel!.width).toBeLessThanOrEqual(390);
        await screenshot(page, 'alerts-panel-phone');
        await page.getByRole('button', { name: /^Alerts/ }).click();
        await page.setViewportSize({ width: 1280, height: 900 });

        // The provider's quota call fails: the dashboard says so with the provider's reason.
        web.sim.failNext('getquota', { httpStatus: 503, times: 1_000 });
        await page.reload();
        const unavailable = page.getByRole('alert').filter({ hasText: 'Quota unavailable' });
        expect(await unavailable.textContent()).toMatch(/^Quota unavailable: \w/);
        expect(await unavailable.textContent()).not.toContain('[object Object]');
        await page.getByTestId('status-counts').waitFor();
        await screenshot(page, 'parcel-quota-unavailable');

        // Nothing on these pages broke the CSP (no inline script or style was refused) or threw.
        expect(
          browserErrors.filter((text) => /Content Security Policy|Uncaught/.test(text)),
        ).toEqual([]);
      },
      BROWSER_TEST_MS,
    );

    it(
      'keeps every main page inside a 390 px wide screen',
      async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        for (const [path, ready] of [
          ['/app/', 'Welcome'],
          ['/app/settings/developer/tokens', 'Personal access tokens'],
          ['/app/webhooks', 'Webhooks'],
          ['/app/settings/security', 'Security'],
          [`${PARCEL}/activity`, 'Activity'],
          [`${PARCEL}/settings`, 'Settings'],
        ] as const) {
          await page.goto(`${origin()}${path}`);
          await page.getByRole('heading', { name: ready }).first().waitFor();
          await page.locator('.state.loading').first().waitFor({ state: 'detached' });
          expect(await tooWide(page), path).toEqual([]);
        }
        await page.setViewportSize({ width: 1280, height: 900 });
      },
      BROWSER_TEST_MS,
    );

    it('serves the built app with hashed assets cached for a year, the page itself revalidated', async () => {
      const index = await httpCall(web.system.gatewayUrl, 'GET', `${PARCEL}/trackings`, {
        host: owner.host,
      });
      expect(index.headers['cache-control']).toBe('no-cache');
      const assets = [...index.text.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map(
        (match) => match[1]!,
      );
      expect(assets.some((path) => path.endsWith('.js'))).toBe(true);
      expect(assets.some((path) => path.endsWith('.css'))).toBe(true);
      for (const path of assets) {
        // Vite names each asset for its content: name-<hash>.ext.
        expect(path).toMatch(/-[\w-]{8,}\.(js|css)$/);
        const asset = await httpCall(web.system.gatewayUrl, 'GET', path, { host: owner.host });
        expect(asset.status, path).toBe(200);
        expect(asset.headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
      }
    });
  },
);
