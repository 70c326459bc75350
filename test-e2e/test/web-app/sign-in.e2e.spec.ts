import { alertEntry, alertRaised } from '@inventory/events';
import { waitFor } from '@inventory/local-infra';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../src/fixtures/browser.js';
import { httpCall } from '../../src/fixtures/http.js';
import { createUserWithToken, type TenantFixture } from '../../src/fixtures/tenants.js';
import { previousStepCode, totpCode } from '../../src/fixtures/totp.js';
import { BROWSER_TEST_MS, signIn, useWebApp, type WebSystem } from './web-harness.js';

/** The page itself, signing in and out, the alerts bell and two-factor (the Security page). */
describe('the web app in Chromium: the page, signing in, alerts and two-factor', () => {
  let web: WebSystem;
  let owner: TenantFixture;
  let page: Page;
  useWebApp({ slug: 'webapp-owner' }, (app) => ({ web, owner, page } = app));
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

      // The alert arrives through NATS: reload until the bell's own request counts it (read on
      // its answer, not on the page right after the reload, which may not have asked yet).
      const bell = page.getByRole('button', { name: /^Alerts/ });
      await expect
        .poll(
          async () => {
            const answered = page.waitForResponse((response) =>
              response.url().includes('/api/alerts'),
            );
            await page.reload();
            return ((await (await answered).json()) as { unread_count: number }).unread_count;
          },
          { timeout: 90_000 },
        )
        .toBe(1);
      await expect.poll(() => bell.textContent()).toContain('1');
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
      // The step before now: the sign-in below uses the current step (replays are refused). Taken
      // early in a step, so a loaded machine cannot carry the check two steps on before it runs.
      await waitFor(() => Date.now() % 30_000 < 15_000, { everyMs: 200, timeoutMs: 40_000 });
      await twoFactor.getByLabel('Code from the app').fill(await previousStepCode(secret));
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
});
