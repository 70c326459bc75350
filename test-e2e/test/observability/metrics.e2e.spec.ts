import { readFileSync } from 'node:fs';
import { signBody, startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall } from '../../src/fixtures/http.js';
import { createTenantWithToken, type TenantFixture } from '../../src/fixtures/tenants.js';
import { startSystem, type RunningSystem } from '../../src/system.js';

const KEY = 'e2e_metrics_provider_key';
const PREFIX = '/api/integrations/parcel-tracking';

/** The sum of a series' samples whose labels include `labels`, from Prometheus text. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const match of text.matchAll(/^(\w+)(?:\{([^}]*)\})? (\S+)$/gm)) {
    if (match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value))
      total += Number(match[3]);
  }
  return total;
}

const DASHBOARD = new URL('../../../deploy/grafana/inventory-golden-signals.json', import.meta.url);

/** Every PromQL expression of a Grafana dashboard, panels in rows included. */
function dashboardQueries(): string[] {
  interface Panel {
    targets?: Array<{ expr?: string }>;
    panels?: Panel[];
  }
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: Panel[];
    templating?: { list: Array<{ query?: unknown }> };
  };
  const walk = (panels: Panel[]): string[] =>
    panels.flatMap((panel) => [
      ...(panel.targets ?? []).flatMap((target) => (target.expr ? [target.expr] : [])),
      ...walk(panel.panels ?? []),
    ]);
  const variables = (dashboard.templating?.list ?? []).flatMap((variable) =>
    typeof variable.query === 'string' && variable.query.includes('(') ? [variable.query] : [],
  );
  return [...walk(dashboard.panels), ...variables];
}

/**
 * The series each part's README promises, read from its metrics port after real traffic: a
 * tenant connects a parcel-tracking instance (gateway → parcel-tracking → the provider, events
 * through the outbox to a consumer) and the provider pushes a signed and a forged webhook.
 */
describe('metrics per part, scraped from each metrics port after traffic', () => {
  let sim: ProviderSimHandle;
  let system: RunningSystem;
  let tenant: TenantFixture;
  const scrape = async (part: string) => {
    const base =
      part === 'gateway'
        ? system.gateway.metricsUrl
        : `http://127.0.0.1:${system.services[part]!.metricsServerPort}`;
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(`service="${part}"`);
    return text;
  };

  beforeAll(async () => {
    sim = await startProviderSim({ keys: [{ key: KEY }], rateLimitPerSecond: 1000 });
    system = await startSystem({
      serviceEnv: {
        'parcel-tracking': { PROVIDER_BASE_URL: sim.url, PROVIDER_RATE_PER_SECOND: '1000' },
      },
    });
    tenant = await createTenantWithToken(system);
    const created = await tenant.request('POST', `${PREFIX}/instances`, {
      name: 'Metered',
      api_key: KEY,
    });
    expect(created.status).toBe(201);
    const path = new URL(created.body.data.webhook_url as string).pathname;
    const body = JSON.stringify({
      event: 'TRACKING_UPDATED',
      data: {
        number: '1Z999AA10123456799',
        carrier: 100002,
        track_info: { latest_status: { status: 'InTransit', sub_status: 'InTransit_PickedUp' } },
      },
    });
    const push = (sign: string) =>
      httpCall(system.gatewayUrl, 'POST', path, {
        host: tenant.host,
        rawBody: body,
        headers: { 'content-type': 'application/json', sign },
      });
    expect((await push(signBody(body, KEY))).status).toBeLessThan(300);
    expect((await push('f'.repeat(64))).status).toBe(401);
  });
  afterAll(async () => {
    await system?.stop();
    await sim?.stop();
  });

  it('gateway: requests by route, rate-limit decisions, gRPC client calls and breakers', async () => {
    const text = await scrape('gateway');
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: `${PREFIX}/instances`,
        status_code: '201',
      }),
    ).toBe(1);
    expect(sample(text, 'gateway_rate_limit_decisions_total', { decision: 'allowed' })).toBe(
      sample(text, 'gateway_rate_limit_decisions_total'),
    );
    expect(
      sample(text, 'gateway_rate_limit_decisions_total', { decision: 'allowed' }),
    ).toBeGreaterThan(0);
    const parcelTracking = 'inventory.parcel_tracking.v1.ParcelTrackingService';
    expect(
      sample(text, 'grpc_client_handled_total', { grpc_service: parcelTracking, grpc_code: 'OK' }),
    ).toBeGreaterThan(0);
    expect(text).toMatch(/^circuit_breaker_state\{[^}]*breaker="[^"]+"[^}]*\} 0$/m);
  });

  it('parcel-tracking: provider calls, latency and pacer waits; outbox and consumers', async () => {
    const text = await scrape('parcel-tracking');
    expect(sample(text, 'parcel_provider_calls_total', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(sample(text, 'parcel_provider_call_seconds_count')).toBeGreaterThan(0);
    expect(sample(text, 'parcel_provider_pacer_wait_seconds_count')).toBeGreaterThan(0);
    await expect
      .poll(async () => sample(await scrape('parcel-tracking'), 'outbox_published_total'), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    await expect
      .poll(
        async () =>
          sample(await scrape('parcel-tracking'), 'events_consumed_total', {
            durable: 'parcel-tracking-backfill',
            outcome: 'handled',
          }),
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    const later = await scrape('parcel-tracking');
    expect(later).toMatch(/^events_consumer_pending\{[^}]*durable="parcel-tracking-backfill"/m);
    expect(later).toMatch(/^outbox_backlog\{[^}]*\} \d+$/m);
    expect(later).toMatch(/^outbox_relay_lag_seconds\{[^}]*\} [\d.]+$/m);
  });

  it('webhook-ingest: webhooks received by answer and processed by result', async () => {
    const text = await scrape('webhook-ingest');
    expect(sample(text, 'webhook_ingest_received_total', { result: 'accepted' })).toBe(1);
    expect(sample(text, 'webhook_ingest_received_total', { result: 'invalid_signature' })).toBe(1);
    await expect
      .poll(async () => sample(await scrape('webhook-ingest'), 'webhook_ingest_processed_total'), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
  });

  it('every metric the Grafana dashboard queries is served, and every part it names exists', async () => {
    const parts = ['gateway', ...Object.keys(system.services)];
    const served = new Set<string>();
    for (const part of parts)
      for (const match of (await scrape(part)).matchAll(/^# TYPE (\w+) (\w+)$/gm)) {
        served.add(match[1]!);
        if (match[2] === 'histogram')
          for (const suffix of ['_bucket', '_count', '_sum']) served.add(match[1]! + suffix);
      }
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(20);
    for (const query of queries) {
      // Every series in the dashboard is written with a label selector, `name{...}`, or is a
      // variable's `label_values(name, label)`.
      const names = [...query.matchAll(/([a-zA-Z_:][\w:]*)\{|label_values\((\w+)/g)].map(
        (match) => (match[1] ?? match[2])!,
      );
      expect(names.length, query).toBeGreaterThan(0);
      for (const name of names) expect(served, `${name} in ${query}`).toContain(name);
      for (const match of query.matchAll(/service=~?"([^"]+)"/g))
        for (const part of match[1]!.split('|').filter((value) => !value.startsWith('$')))
          expect(parts, query).toContain(part);
    }
  });
});
