import { describe, expect, it } from 'vitest';
import { planFromEnv } from './plan.js';

describe('planFromEnv', () => {
  it('derives every internal port from DEV_PORT_BASE and keeps the gateway port separate', () => {
    const plan = planFromEnv({ DEV_PORT_BASE: '30000', DEV_GATEWAY_PORT: '9090' }, '/repo');
    expect(plan.gatewayPort).toBe(9090);
    expect([plan.mongoPort, plan.natsPort, plan.redisPort, plan.providerPort]).toEqual([
      30017, 30222, 30379, 30410,
    ]);
    expect(plan.grpcPorts).toEqual({
      identity: 30501,
      'parcel-tracking': 30502,
      'webhook-ingest': 30503,
      'outbound-delivery': 30504,
      activity: 30505,
      catalog: 30506,
    });
    expect(plan.gatewayMetricsPort).toBe(30600);
    expect(plan.metricsPorts).toEqual({
      identity: 30601,
      'parcel-tracking': 30602,
      'webhook-ingest': 30603,
      'outbound-delivery': 30604,
      activity: 30605,
      catalog: 30606,
    });
    expect(plan.dataDir).toBe('/repo/.data');
  });

  it('lets MONGO_URL, NATS_URL and REDIS_URL replace the local servers', () => {
    const plan = planFromEnv(
      { MONGO_URL: 'mongodb://db:27017', NATS_URL: 'nats://bus:4222', REDIS_URL: '' },
      '/repo',
    );
    expect(plan.external).toEqual({
      mongoUrl: 'mongodb://db:27017',
      natsUrl: 'nats://bus:4222',
      redisUrl: undefined,
    });
  });

  it('refuses a port that is not a port, naming the variable', () => {
    expect(() => planFromEnv({ DEV_GATEWAY_PORT: 'http' }, '/repo')).toThrow(
      /DEV_GATEWAY_PORT must be a port number/,
    );
    expect(() => planFromEnv({ DEV_PORT_BASE: '70000' }, '/repo')).toThrow(/DEV_PORT_BASE/);
  });
});
