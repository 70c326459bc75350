import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSystem, type RunningSystem } from '../src/index.js';

describe('gateway health, readiness, metrics and unknown routes', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  });
  afterAll(() => system?.stop());

  it('answers /healthz', async () => {
    const response = await fetch(`${system.gatewayUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('reports ready when every service, Redis and NATS are up', async () => {
    const response = await fetch(`${system.gatewayUrl}/readyz`);
    const body = (await response.json()) as { status: string; checks: Record<string, boolean> };
    expect(response.status).toBe(200);
    expect(body.status).toBe('ready');
    expect(body.checks).toEqual({
      identity: true,
      'parcel-tracking': true,
      'webhook-ingest': true,
      'outbound-delivery': true,
      activity: true,
      catalog: true,
      redis: true,
      nats: true,
    });
  });

  it('does not serve metrics on the public port: /metrics is the 404 envelope', async () => {
    const response = await fetch(`${system.gatewayUrl}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      errors: {
        url: [{ message: 'The route /metrics could not be found.', code: 'NotFound', data: [] }],
      },
      status: 'failure',
      message: 'The route /metrics could not be found.',
    });
  });

  it('serves Prometheus metrics on METRICS_PORT, counting requests made on the public port', async () => {
    expect(new URL(system.gateway.metricsUrl).port).not.toBe(new URL(system.gatewayUrl).port);
    expect((await fetch(`${system.gatewayUrl}/healthz`)).status).toBe(200);
    const response = await fetch(`${system.gateway.metricsUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const body = await response.text();
    expect(body).toMatch(
      /^http_request_duration_seconds_count\{[^}]*method="GET"[^}]*route="\/healthz"[^}]*status_code="200"[^}]*\} [1-9]/m,
    );
    expect(body).toContain('service="gateway"');
  });

  it('answers an unknown route with the specification 404 envelope', async () => {
    const response = await fetch(`${system.gatewayUrl}/api/does-not-exist`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      errors: {
        url: [
          {
            message: 'The route /api/does-not-exist could not be found.',
            code: 'NotFound',
            data: [],
          },
        ],
      },
      status: 'failure',
      message: 'The route /api/does-not-exist could not be found.',
    });
  });
});

// Each of these stops a part for good, so each has a system of its own.
describe('gateway readiness when a part stops', () => {
  let system: RunningSystem;
  beforeEach(async () => {
    system = await startSystem();
  });
  afterEach(() => system?.stop());

  it('stays ready but degraded, naming the part, when a service other than identity stops', async () => {
    await system.services.activity!.grpc!.stop(1_000);
    const response = await fetch(`${system.gatewayUrl}/readyz`);
    const body = (await response.json()) as { status: string; checks: Record<string, boolean> };
    expect(response.status).toBe(200);
    expect(body.status).toBe('degraded');
    expect(body.checks.activity).toBe(false);
    expect(body.checks.identity).toBe(true);
  });

  it('reports not ready when identity, which every request needs, stops', async () => {
    await system.services.identity!.grpc!.stop(1_000);
    const response = await fetch(`${system.gatewayUrl}/readyz`);
    const body = (await response.json()) as { status: string; checks: Record<string, boolean> };
    expect(response.status).toBe(503);
    expect(body.status).toBe('not_ready');
    expect(body.checks.identity).toBe(false);
  });
});
