import Fastify, { type FastifyInstance } from 'fastify';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../http/error-handler.js';
import { ROUTE_TABLE } from '../route-table.js';
import { webAppRoutes } from './routes.js';
import { CONTENT_SECURITY_POLICY } from './security-headers.js';

async function appServing(dir: string): Promise<FastifyInstance> {
  const app = Fastify();
  registerErrorHandling(app);
  await app.register(webAppRoutes, { webAppDir: dir });
  return app;
}

describe('the web app under /app', () => {
  let dir: string;
  let app: FastifyInstance;
  const INDEX = '<!doctype html><script type="module" src="/app/assets/index-abc123.js"></script>';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'web-app-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), INDEX);
    await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    await writeFile(join(dir, 'assets', 'index-abc123.css'), 'body{}');
    await writeFile(join(dir, 'favicon.svg'), '<svg/>');
    app = await appServing(dir);
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves index.html at /app and at every client-side route, always revalidated', async () => {
    for (const url of [
      '/app',
      '/app/',
      '/app/settings/developer/tokens',
      '/app/webhooks/12?page=2',
    ]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(INDEX);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and serves them with their types', async () => {
    const js = await app.inject({ url: '/app/assets/index-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const css = await app.inject({ url: '/app/assets/index-abc123.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    // Unhashed files at the root may change: revalidated, not immutable.
    const icon = await app.inject({ url: '/app/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('sends a CSP without inline scripts, and forbids framing', async () => {
    for (const url of ['/app', '/app/assets/index-abc123.js']) {
      const response = await app.inject({ url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toBe(CONTENT_SECURITY_POLICY);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('404s a missing asset instead of answering with the page', async () => {
    const response = await app.inject({ url: '/app/assets/missing-123.js' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toBe(INDEX);
    expect(response.json().message).toEqual(expect.any(String));
  });

  it('never serves a file outside its folder', async () => {
    await writeFile(join(dir, '..', 'web-app-outside.txt'), 'TOP-SECRET-CONTENT').catch(
      () => undefined,
    );
    for (const url of [
      '/app/../web-app-outside.txt',
      '/app/%2e%2e/web-app-outside.txt',
      '/app/..%2fweb-app-outside.txt',
      '/app/assets/..%2f..%2fweb-app-outside.txt',
      '/app/%2fetc%2fpasswd',
    ]) {
      const response = await app.inject({ url });
      expect(response.body, url).not.toContain('TOP-SECRET-CONTENT');
      expect(response.body, url).not.toContain('root:');
    }
    await rm(join(dir, '..', 'web-app-outside.txt'), { force: true });
  });

  it('starts without a build and says how to make one', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'web-app-empty-'));
    const bare = await appServing(join(empty, 'missing-dist'));
    try {
      const response = await bare.inject({ url: '/app/settings' });
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toMatch(/npm run build/);
    } finally {
      await bare.close();
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('is public in the route table (the API calls carry the session)', () => {
    expect(ROUTE_TABLE['GET /app']).toEqual({ access: 'public' });
    expect(ROUTE_TABLE['GET /app/*']).toEqual({ access: 'public' });
  });
});
