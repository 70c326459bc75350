import { createRequire } from 'node:module';
import { eventually } from '@inventory/local-infra';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { npmRunEmit } from '../../src/fixtures/emit.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { BROWSER_TEST_MS, PROVIDER_KEY, signIn, useWebApp, type WebSystem } from './web-harness.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PARCEL = '/app/integrations/parcel-tracking';

/** axe-core's serious and critical violations on the page as it is now: rule, impact, where. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate<
    Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>
  >(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
}

/** Every page of the app, as an admin with data on each, through axe-core (WCAG 2.x A and AA). */
describe('the web app in Chromium: accessibility (axe-core)', { shuffle: false }, () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  let instanceId: number;
  let subscriptionId: number;
  let trackingId: number;
  useWebApp(
    { slug: 'webapp-a11y', parcelTrackingEnv: { TRACKING_WORKER_INTERVAL_MS: '500' } },
    (app) => ({ web, owner } = app),
  );
  const origin = () => web.origin(owner.host);

  beforeAll(async () => {
    // The injected axe script is inline: this profile lets it past the page's CSP.
    const context = await web.browser.newContext({
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
    });
    page = await context.newPage();
    page.setDefaultTimeout(45_000);
    const connected = await owner.request('POST', '/api/integrations/parcel-tracking/instances', {
      name: 'Parcel tracking',
      api_key: PROVIDER_KEY,
    });
    instanceId = connected.body.data.id;
    const subscription = await owner.request('POST', '/api/webhook-subscriptions', {
      url: `${web.receiverUrl}/hooks/a11y`,
      events: ['product.created'],
    });
    subscriptionId = subscription.body.data.id;
    await npmRunEmit(web.system, 'shipment.tracking_assigned', owner.tenant.slug, {
      trackable_type: 'sales_order_fulfillment',
      trackable_id: 1001,
      trackable_label: 'SO-1001 / F1',
      trackable_url: '/sales-orders/1001/fulfillments/1',
      tracking_number: '1Z999AA10123451001',
      sales_channel_id: 1,
      sub_channel_id: 11,
    });
    trackingId = await eventually(async () => {
      const list = await owner.request(
        'GET',
        `/api/integrations/parcel-tracking/instances/${instanceId}/trackings`,
      );
      expect(list.body.data).toHaveLength(1);
      return list.body.data[0].id as number;
    });
  }, BROWSER_TEST_MS);

  it(
    'reports no serious or critical violation on the sign-in page or any page behind it',
    async () => {
      await page.goto(`${origin()}/app/`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      const found: Record<string, string[]> = { 'sign-in': await seriousViolations(page) };
      await signIn(page, origin(), { email: owner.user.email, password: owner.password });
      const pages: Array<[string, string, (() => Promise<void>)?]> = [
        ['/app/', 'Welcome'],
        ['/app/settings/developer/tokens', 'Personal access tokens'],
        [
          '/app/settings/developer/tokens',
          'Personal access tokens',
          () => page.getByRole('button', { name: 'New token' }).click(),
        ],
        [`/app/settings/developer/tokens/${owner.tokenId}`, 'Token usage'],
        [PARCEL, 'Shipments by status'],
        [`${PARCEL}/trackings`, 'Trackings'],
        [`${PARCEL}/trackings/${trackingId}`, 'Inbound webhooks'],
        [`${PARCEL}/webhooks`, 'Webhook log'],
        [`${PARCEL}/activity`, 'Activity'],
        [`${PARCEL}/settings`, 'Settings'],
        ['/app/webhooks', 'Webhooks'],
        [
          '/app/webhooks',
          'Webhooks',
          () => page.getByRole('button', { name: 'New subscription' }).click(),
        ],
        [`/app/webhooks/${subscriptionId}`, 'Delivery log'],
        ['/app/settings/security', 'Security'],
      ];
      for (const [path, ready, act] of pages) {
        await page.goto(`${origin()}${path}`);
        await page.getByRole('heading', { name: ready }).first().waitFor();
        await page.locator('.state.loading').first().waitFor({ state: 'detached' });
        if (act) await act();
        found[`${path}${act ? ' (form open)' : ''}`] = await seriousViolations(page);
      }
      expect(Object.entries(found).filter(([, violations]) => violations.length > 0)).toEqual([]);
    },
    BROWSER_TEST_MS,
  );
});
