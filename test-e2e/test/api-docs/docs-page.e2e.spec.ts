import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../src/fixtures/browser.js';
import {
  createTenantWithToken,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

interface OpenApiDocument {
  paths: Record<string, Record<string, { summary?: string }>>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

// `/api/docs` (Swagger UI) in Debian's chromium, as an integrator opens it on their own host.
describe('the API docs page in a real browser', { timeout: 180_000 }, () => {
  let system: RunningSystem;
  let browser: Browser;
  let tenants: TenantFixture[];
  let operations: number;

  beforeAll(async () => {
    system = await startSystem();
    tenants = await Promise.all([
      createTenantWithToken(system, { slug: 'docsone' }),
      createTenantWithToken(system, { slug: 'docstwo' }),
    ]);
    browser = await launchChromium();
    const document = (await (
      await fetch(`${system.gatewayUrl}/api/openapi.json`)
    ).json()) as OpenApiDocument;
    operations = Object.values(document.paths)
      .flatMap((item) => Object.keys(item))
      .filter((method) => METHODS.has(method)).length;
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await system?.stop();
  });

  it('lists every operation of the document on each tenant host, with nothing refused', async () => {
    expect(operations).toBeGreaterThan(20);
    const port = new URL(system.gatewayUrl).port;
    for (const host of [...tenants.map((tenant) => tenant.host), '127.0.0.1']) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('response', (response) => {
        if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
      });
      try {
        const response = await page.goto(`http://${host}:${port}/api/docs`);
        expect(response?.status()).toBe(200);
        // Swagger UI draws one block per operation once it has fetched and parsed the document.
        await expect
          .poll(() => page.locator('.opblock').count(), { timeout: 45_000 })
          .toBe(operations);
        await expect
          .poll(() => page.locator('.opblock-summary-path').allTextContents())
          .toContain('/api/personal-access-tokens/{id}');
        expect(await page.locator('.information-container .title').textContent()).toContain(
          'Inventory Management Service API',
        );
        expect(refused, host).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
