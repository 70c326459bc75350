import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { afterAll, beforeAll } from 'vitest';
import { buildWebApp, launchChromium } from '../../src/fixtures/browser.js';
import { createTenantWithToken, type TenantFixture } from '../../src/fixtures/tenants.js';
import { startSystem, type RunningSystem } from '../../src/system.js';

export const PROVIDER_KEY = 'web_app_provider_key_1';
/** A browser step drives the whole system on a busy machine: minutes, never the assertion. */
export const BROWSER_TEST_MS = 180_000;

export interface WebSystem {
  system: RunningSystem;
  sim: ProviderSimHandle;
  browser: Browser;
  /** The receiver of outbound webhooks: every request's path. */
  receiverUrl: string;
  received: string[];
  /** `http://<tenant host>:<gateway port>`: what a person types in the address bar. */
  origin(host: string): string;
  /** A fresh browser profile (own cookies and storage) at 1280 × 900. */
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
  stop(): Promise<void>;
}

/**
 * The whole system as startSystem() starts it, plus the provider simulator, a webhook
 * receiver, the web app built from source, and headless Chromium.
 */
export interface WebSystemOptions {
  parcelTrackingEnv?: NodeJS.ProcessEnv;
}

export async function startWebSystem(options: WebSystemOptions = {}): Promise<WebSystem> {
  const webAppDir = await buildWebApp();
  const sim = await startProviderSim({ keys: [{ key: PROVIDER_KEY }], rateLimitPerSecond: 1000 });
  const received: string[] = [];
  const receiver: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(request.url ?? '');
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const system = await startSystem({
    gatewayEnv: { WEB_APP_DIR: webAppDir },
    serviceEnv: {
      'parcel-tracking': {
        PROVIDER_BASE_URL: sim.url,
        PROVIDER_RATE_PER_SECOND: '1000',
        ...options.parcelTrackingEnv,
      },
      'outbound-delivery': {
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        WEBHOOK_RETRY_DELAYS_MS: '50,100',
        WEBHOOK_TIMEOUT_MS: '2000',
        DELIVERY_POLL_MS: '25',
      },
    },
  });
  const browser = await launchChromium();
  const port = new URL(system.gatewayUrl).port;
  return {
    system,
    sim,
    browser,
    receiverUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    received,
    origin: (host) => `http://${host}:${port}`,
    async newPage() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(45_000);
      return { context, page };
    },
    async stop() {
      await browser.close().catch(() => undefined);
      await system.stop();
      await sim.stop();
      await new Promise((resolve) => receiver.close(resolve));
      await rm(webAppDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the form; `code` when the account has two-factor on. */
export async function signIn(
  page: Page,
  origin: string,
  credentials: { email: string; password: string; code?: () => string },
): Promise<void> {
  await page.goto(`${origin}/app/`);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (credentials.code) {
    await page.getByLabel('Two-factor code').fill(credentials.code());
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** What a file's tests share: the system, one tenant's owner and one browser tab. */
export interface WebApp {
  web: WebSystem;
  owner: TenantFixture;
  page: Page;
}

/**
 * One file's set-up and tear-down: the web system, a tenant (`slug`) and a tab, handed to
 * `opened` before the first test, stopped after the last. `signedIn` signs the owner in on the
 * tab first, for files whose tests start on a signed-in page.
 */
export function useWebApp(
  options: WebSystemOptions & { slug: string; tenantName?: string; signedIn?: boolean },
  opened: (app: WebApp) => void,
): void {
  let web: WebSystem | undefined;
  beforeAll(async () => {
    web = await startWebSystem(options);
    const owner = await createTenantWithToken(web.system, {
      slug: options.slug,
      tenantName: options.tenantName,
    });
    const { page } = await web.newPage();
    if (options.signedIn)
      await signIn(page, web.origin(owner.host), {
        email: owner.user.email,
        password: owner.password,
      });
    opened({ web, owner, page });
  }, BROWSER_TEST_MS);
  afterAll(() => web?.stop());
}
