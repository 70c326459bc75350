import { alertEntry, alertRaised } from '@inventory/events';
import { seedSalesChannels } from '@inventory/parcel-tracking';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import { httpCall } from '../../src/fixtures/http.js';
import {
  createTenantWithToken,
  createUserWithToken,
  type TenantFixture,
} from '../../src/fixtures/tenants.js';
import { totpCode } from '../../src/fixtures/totp.js';
import { PROVIDER_KEY, signIn, startWebSystem, type WebSystem } from './web-harness.js';

const BROWSER_TEST_MS = 180_000;

describe('the web app in Chromium, against the whole system', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;

  beforeAll(async () => {
    web = await startWebSystem();
    owner = await createTenantWithToken(web.system, { slug: 'webapp-owner' });
    ({ page } = await web.newPage());
  }, BROWSER_TEST_MS);
  afterAll(() => web?.stop());

  const origin = () => web.origin(owner.host);

  it('serves the page on the tenant host with a CSP that forbids inline scripts and framing', async () => {
    const response = await httpCall(
      web.system.gatewayUrl,
      'GET',
      '/app/settings/developer/tokens',
      { host: owner.host },
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const unknownHost = await httpCall(web.system.gatewayUrl, 'GET', '/app', {
      host: 'nobody.example.com',
    });
    expect(unknownHost.status).toBe(404);
  });

  it(
    'signs in with email and password, shows the layout and the alerts bell, and signs out',
    async () => {
      await web.system.services.activity!.publisher.publish(
        alertRaised,
        alertEntry({
          tenantId: owner.tenant.id,
          key: 'web-app-quota-1',
          kind: 'quota_warning',
          priority: 'normal',
          title: 'Quota at 80%',
          message: 'Parcel-tracking quota reached its alert threshold.',
          link: '/integrations/parcel-tracking',
        }).event,
      );
      const wrong = await web.newPage();
      await wrong.page.goto(`${origin()}/app/`);
      await wrong.page.getByLabel('Email').fill(owner.user.email);
      await wrong.page.getByLabel('Password').fill('not-the-password');
      await wrong.page.getByRole('button', { name: 'Sign in' }).click();
      await expect(wrong.page.locator('.field-error').first().textContent()).resolves.toContain(
        'credentials',
      );
      await wrong.context.close();

      await signIn(page, origin(), { email: owner.user.email, password: owner.password });
      await page.getByRole('heading', { name: /Welcome/ }).waitFor();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Webhooks' })
        .waitFor();
      await screenshot(page, 'home');

      // The alert arrives through NATS: reopen the bell until the activity service has stored it.
      const bell = page.getByRole('button', { name: /^Alerts/ });
      await expect
        .poll(
          async () => {
            await page.reload();
            return bell.textContent();
          },
          { timeout: 90_000 },
        )
        .toContain('1');
      await bell.click();
      const panel = page.getByRole('region', { name: 'Alerts' });
      await panel.getByText('Quota at 80%').waitFor();
      await screenshot(page, 'alerts');
      await panel.getByRole('button', { name: 'Mark as read' }).click();
      await panel
        .getByRole('button', { name: 'Mark all as read' })
        .and(page.locator(':disabled'))
        .waitFor();
      expect(await bell.textContent()).toBe('Alerts');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      // The session is gone server-side too: a reload stays signed out.
      await page.reload();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    },
    BROWSER_TEST_MS,
  );

  it(
    'turns two-factor on in Security, then signs in with the code',
    async () => {
      const user = await createUserWithToken(web.system, owner.tenant);
      const { context, page: twoFactor } = await web.newPage();
      await signIn(twoFactor, origin(), { email: user.user.email, password: user.password });
      await twoFactor.getByRole('link', { name: 'Security' }).click();
      await twoFactor.getByRole('button', { name: 'Set up two-factor' }).click();
      const qr = twoFactor.getByRole('img', { name: 'QR code of the two-factor setup link' });
      await qr.waitFor();
      expect((await qr.locator('path').getAttribute('d'))!.length).toBeGreaterThan(1000);
      const secret = (await twoFactor.getByTestId('totp-secret').textContent())!;
      // The step before now: the sign-in below uses the current step (replays are refused).
      await twoFactor.getByLabel('Code from the app').fill(totpCode(secret, Date.now() - 30_000));
      await twoFactor.getByRole('button', { name: 'Confirm and turn on' }).click();
      await twoFactor.getByRole('region', { name: 'Recovery codes' }).waitFor();
      await twoFactor.getByText('Two-factor authentication is on.').waitFor();
      await screenshot(twoFactor, 'security-recovery-codes');
      await twoFactor.getByRole('button', { name: 'Sign out' }).click();

      await twoFactor.getByLabel('Email').fill(user.user.email);
      await twoFactor.getByLabel('Password').fill(user.password);
      await twoFactor.getByRole('button', { name: 'Sign in' }).click();
      await twoFactor.getByLabel('Two-factor code').fill('000000');
      await twoFactor.getByRole('button', { name: 'Sign in' }).click();
      await twoFactor.locator('.field-error').waitFor();
      await twoFactor.getByLabel('Two-factor code').fill(totpCode(secret));
      await twoFactor.getByRole('button', { name: 'Sign in' }).click();
      await twoFactor.getByRole('button', { name: 'Sign out' }).waitFor();

      // Turning it off needs the password and a fresh code (the next step: this one was used).
      await twoFactor.getByRole('link', { name: 'Security' }).click();
      await twoFactor.getByLabel('Password').fill(user.password);
      await twoFactor.getByLabel('Current code').fill(totpCode(secret, Date.now() + 30_000));
      await twoFactor.getByRole('button', { name: 'Turn off two-factor' }).click();
      await twoFactor.getByText('Two-factor authentication is off.').waitFor();
      await context.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'creates a token with a write scope, uses it over HTTP, sees the request, revokes it',
    async () => {
      await signIn(page, origin(), { email: owner.user.email, password: owner.password });
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Access tokens' })
        .click();
      await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();
      await page.getByRole('button', { name: 'New token' }).click();
      const form = page.getByRole('form', { name: 'New token' });
      // Validation messages land next to their fields.
      const fieldOf = (name: string) =>
        form.locator('.field', { has: page.locator(`input[name="${name}"]`) });
      await form.getByRole('button', { name: 'Create token' }).click();
      await fieldOf('name').locator('.field-error').waitFor();
      expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
      await form.getByLabel('Name').fill('Browser CI');
      await form.getByLabel(/Rate limit/).fill('5000');
      await form.getByRole('button', { name: 'Create token' }).click();
      await fieldOf('rate_limit_per_minute').locator('.field-error').waitFor();
      await fieldOf('name').locator('.field-error').waitFor({ state: 'detached' });
      await screenshot(page, 'token-form-errors');

      await form.getByLabel(/Rate limit/).fill('120');
      await form.getByRole('checkbox', { name: 'orders:write', exact: true }).check();
      await form.getByRole('checkbox', { name: 'orders:read', exact: true }).check();
      await form.getByRole('button', { name: 'Create token' }).click();
      const plain = await page.getByTestId('new-token').inputValue();
      expect(plain).toMatch(/^\d+\|[A-Za-z0-9]{40,}$/);
      await page.getByText('This is the only time it is shown.').waitFor();
      await screenshot(page, 'token-created');

      const used = await owner.withToken(plain)('GET', '/api/user');
      expect(used.status).toBe(200);
      expect(used.body.data.email).toBe(owner.user.email);

      await page.getByRole('button', { name: 'I have saved it' }).click();
      const row = page.locator(`tr[data-token-id="${plain.split('|')[0]}"]`);
      await row.getByText('orders:read, orders:write').waitFor();
      await row.getByRole('link', { name: 'Browser CI' }).click();
      // The request log is written after the answer: reload until it shows.
      await expect
        .poll(
          async () => {
            await page.reload();
            return page
              .getByRole('table', { name: 'Request history' })
              .or(page.getByText('No requests match.'))
              .textContent();
          },
          { timeout: 90_000 },
        )
        .toContain('GET /api/user');
      await page.getByText('Requests (30 days)').waitFor();
      await screenshot(page, 'token-usage-history');
      // Filters: a bad status is named next to its field; a class filter keeps the row; all in the URL.
      await page.getByLabel('Status').fill('abc');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page
        .locator('#filter-status-error')
        .getByText(/filter.status is invalid/)
        .waitFor();
      await page.getByLabel('Status').fill('4xx');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No requests match.').waitFor();
      await page.getByLabel('Status').fill('2xx');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page
        .getByRole('table', { name: 'Request history' })
        .getByText('GET /api/user')
        .waitFor();
      expect(page.url()).toContain('status=2xx');

      await page.getByRole('link', { name: 'Personal access tokens' }).click();
      // Adding a write scope to an existing token asks for the password again (rule 6).
      await row.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('form', { name: 'Edit token' });
      await edit.getByRole('checkbox', { name: 'products:write', exact: true }).check();
      await edit.getByLabel('Password').fill('not-the-password');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.getByRole('alert').first().waitFor();
      await screenshot(page, 'token-edit-reauth');
      await edit.getByLabel('Password').fill(owner.password);
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved “Browser CI”.').waitFor();
      await row.getByText('orders:read, orders:write, products:write').waitFor();
      await row.getByRole('button', { name: 'Revoke' }).click();
      await row.getByRole('button', { name: 'Yes, revoke' }).click();
      await page.getByText('Revoked “Browser CI”.').waitFor();
      await row.waitFor({ state: 'detached' });
      const refused = await owner.withToken(plain)('GET', '/api/user');
      expect(refused.status).toBe(401);
    },
    BROWSER_TEST_MS,
  );

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
      const instanceId = await page.getByTestId('instance-id').textContent();
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
      await screenshot(page, 'parcel-trackings');

      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page.getByRole('button', { name: 'Yes, disconnect' }).click();
      await page.getByRole('form', { name: 'Connect parcel tracking' }).waitFor();
    },
    BROWSER_TEST_MS,
  );

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
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            await page.locator('.deliveries, .state.empty').first().waitFor();
            return delivered.count();
          },
          { timeout: 90_000 },
        )
        .toBeGreaterThan(0);
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
      await page.getByRole('button', { name: 'Re-enable' }).click();
      await summary.getByText(/^Active/).waitFor();
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
});
