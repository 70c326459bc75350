import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { ROUTE_TABLE } from '@inventory/gateway';
import { httpCall, type HttpResponse } from '../../src/fixtures/http.js';
import {
  createTenantWithToken,
  loginSession,
  type SessionFixture,
  type TenantFixture,
} from '../../src/fixtures/tenants.js';
import { startSystem, type RunningSystem, type SystemOptions } from '../../src/system.js';
import { waitFor } from '@inventory/local-infra';

export const PROVIDER_KEY = 'resilience_provider_key_1';
export const OTHER_PROVIDER_KEY = 'resilience_provider_key_2';
export const THIRD_PROVIDER_KEY = 'resilience_provider_key_3';
export const PARCEL = '/api/integrations/parcel-tracking';

export { ROUTE_TABLE };

export interface ResilienceSystem {
  system: RunningSystem;
  sim: ProviderSimHandle;
  /** A loopback receiver for outbound webhook subscriptions (answers 200). */
  receiverUrl: string;
  stop(): Promise<void>;
}

/**
 * The whole system with the provider simulated and the gateway's limits raised, so hundreds of
 * probes exercise the routes themselves rather than the rate limiter or the login throttle.
 */
export async function startResilienceSystem(
  options: SystemOptions = {},
): Promise<ResilienceSystem> {
  const sim = await startProviderSim({
    keys: [{ key: PROVIDER_KEY }, { key: OTHER_PROVIDER_KEY }, { key: THIRD_PROVIDER_KEY }],
    rateLimitPerSecond: 1000,
  });
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // A stand-in build of the web app, so /app serves files here as it does wherever the app is
  // built (its own browser tests build the real one); unbuilt, /app answers 503 by design.
  const webAppDir = mkdtempSync(join(tmpdir(), 'resilience-web-app-'));
  mkdirSync(join(webAppDir, 'assets'));
  writeFileSync(join(webAppDir, 'index.html'), '<!doctype html><title>Inventory</title>');
  const system = await startSystem({
    ...options,
    serviceEnv: {
      ...options.serviceEnv,
      'parcel-tracking': {
        PROVIDER_BASE_URL: sim.url,
        PROVIDER_RATE_PER_SECOND: '1000',
        ...options.serviceEnv?.['parcel-tracking'],
      },
      'outbound-delivery': {
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        ...options.serviceEnv?.['outbound-delivery'],
      },
    },
    gatewayEnv: {
      WEB_APP_DIR: webAppDir,
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '100000',
      LOGIN_MAX_ATTEMPTS_PER_IP: '100000',
      ...options.gatewayEnv,
    },
  });
  return {
    system,
    sim,
    receiverUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    async stop() {
      await system.stop();
      await sim.stop();
      await new Promise((resolve) => receiver.close(resolve));
    },
  };
}

/** A tenant with one of everything a route can address: an instance, a subscription, a session. */
export interface PopulatedTenant {
  fixture: TenantFixture;
  session: SessionFixture;
  instanceId: number;
  /** The path of the instance's inbound webhook URL, `/webhooks/parcel-tracking/<token>`. */
  webhookPath: string;
  subscriptionId: string;
  tokenId: number;
}

export async function populatedTenant(
  r: ResilienceSystem,
  options: { apiKey?: string } = {},
): Promise<PopulatedTenant> {
  const fixture = await createTenantWithToken(r.system);
  const session = await loginSession(fixture, r.system.gatewayUrl);
  const instance = await fixture.request('POST', `${PARCEL}/instances`, {
    name: 'Parcel tracking',
    api_key: options.apiKey ?? PROVIDER_KEY,
  });
  if (instance.status !== 201) throw new Error(`instance: ${instance.status} ${instance.text}`);
  const subscription = await fixture.request('POST', '/api/webhook-subscriptions', {
    url: r.receiverUrl,
    events: ['product.created'],
  });
  if (subscription.status !== 201)
    throw new Error(`subscription: ${subscription.status} ${subscription.text}`);
  return {
    fixture,
    session,
    instanceId: instance.body.data.id as number,
    webhookPath: new URL(instance.body.data.webhook_url as string).pathname,
    subscriptionId: String(subscription.body.data.id),
    tokenId: fixture.tokenId,
  };
}

/** The credential a route's access rule calls for: the session for session-only routes, else the token. */
export function credentialsFor(route: string, tenant: PopulatedTenant): Record<string, string> {
  const access = ROUTE_TABLE[route]!.access;
  if (access === 'session')
    return { cookie: tenant.session.cookie, 'x-csrf-token': tenant.session.csrfToken };
  if (access === 'public') return {};
  return { authorization: `Bearer ${tenant.fixture.token}` };
}

/** One request to `route` on the tenant's host with the route's credential (plus `headers`). */
export function send(
  r: ResilienceSystem,
  tenant: PopulatedTenant,
  route: string,
  options: { path?: string; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<HttpResponse> {
  return httpCall(r.system.gatewayUrl, methodOf(route), options.path ?? pathFor(route, tenant), {
    host: tenant.fixture.host,
    rawBody: options.body,
    headers: { ...credentialsFor(route, tenant), ...options.headers },
  });
}

/** Fills a route pattern's parameters with the tenant's real ids (or `override` for every id). */
export function pathFor(route: string, tenant: PopulatedTenant, override?: string): string {
  const pattern = route.slice(route.indexOf(' ') + 1);
  return pattern.replace(/\*$/, 'x').replace(/:(\w+)/g, (_match, name: string) => {
    if (override !== undefined) return override;
    switch (name) {
      case 'instance':
        return String(tenant.instanceId);
      case 'token':
        return tenant.webhookPath.split('/').pop()!;
      case 'delivery_id':
      case 'job_id':
      case 'tracking':
      case 'webhook':
        return '1';
      case 'job':
        return '00000000-0000-4000-8000-000000000000';
      case 'id':
        if (pattern.startsWith('/api/webhook-subscriptions')) return tenant.subscriptionId;
        if (
          pattern.startsWith('/api/personal-access-tokens') ||
          pattern.startsWith('/api/organization/personal-access-tokens')
        )
          return String(tenant.tokenId);
        return '1';
      default:
        throw new Error(`no id for :${name} in ${route}; teach pathFor about it`);
    }
  });
}

export function methodOf(route: string): string {
  return route.slice(0, route.indexOf(' '));
}

/** Polls `check` (a failed check counts as not yet) until it returns a value; fails at `capMs`. */
export function pollUntil<T>(
  check: () => Promise<T | undefined>,
  capMs: number,
  everyMs = 100,
): Promise<T> {
  return waitFor(() => check().catch(() => undefined), { timeoutMs: capMs, everyMs });
}

/** Prints a suite's figures (the closing note reports them from the test output). */
export function reportFigures(line: string): void {
  // eslint-disable-next-line no-console -- the figures are the point of the print
  console.info(line);
}
