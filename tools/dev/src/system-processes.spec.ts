import { describe, expect, it } from 'vitest';
import { planFromEnv } from './plan.js';
import { gatewayProcess, infraUrls, serviceProcesses } from './system-processes.js';

const envOf = (env: NodeJS.ProcessEnv, name: string) => {
  const plan = planFromEnv(env, '/repo');
  const specs = serviceProcesses(plan, '/repo', infraUrls(plan));
  return specs.find((spec) => spec.name === name)!.env!;
};

describe('serviceProcesses', () => {
  it('gives parcel-tracking the Redis the gateway uses (its provider pacing window lives there)', () => {
    const plan = planFromEnv({ DEV_PORT_BASE: '30000' }, '/repo');
    const gateway = gatewayProcess(plan, '/repo', infraUrls(plan));
    expect(envOf({ DEV_PORT_BASE: '30000' }, 'parcel-tracking').REDIS_URL).toBe(
      'redis://127.0.0.1:30379',
    );
    expect(gateway.env!.REDIS_URL).toBe('redis://127.0.0.1:30379');
    expect(envOf({ REDIS_URL: 'redis://cache:6379' }, 'parcel-tracking').REDIS_URL).toBe(
      'redis://cache:6379',
    );
  });
});

describe('gatewayProcess', () => {
  it('lets 127.0.0.1 and localhost reach the development tenant (a development-only setting)', () => {
    const plan = planFromEnv({ DEV_TENANT_SLUG: 'demo' }, '/repo');
    const env = gatewayProcess(plan, '/repo', infraUrls(plan)).env!;
    expect(env.DEV_LOOPBACK_TENANT).toBe('demo');
    expect(env.NODE_ENV).toBeUndefined();
  });
});
