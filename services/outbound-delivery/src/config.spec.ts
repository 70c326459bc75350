import { describe, expect, it } from 'vitest';
import { configSchema, DEV_WEBHOOK_SECRET_ENCRYPTION_KEY } from './config.js';

const base = {
  MONGO_URL: 'mongodb://127.0.0.1:1/x',
  NATS_URL: 'nats://127.0.0.1:1',
  REDIS_URL: 'redis://127.0.0.1:1',
};

describe('outbound-delivery config', () => {
  it('defaults to the specification: 3 attempts, 30 s then 300 s, 15 s, 25 failures, 600/min, SVC', () => {
    const config = configSchema.parse(base);
    expect(config).toMatchObject({
      WEBHOOK_MAX_ATTEMPTS: 3,
      WEBHOOK_RETRY_DELAYS_MS: [30_000, 300_000],
      WEBHOOK_TIMEOUT_MS: 15_000,
      WEBHOOK_DEACTIVATE_AFTER_FAILURES: 25,
      WEBHOOK_RATE_PER_MINUTE: 600,
      WEBHOOK_SHORT_NAME: 'SVC',
      WEBHOOK_ALLOW_HTTP: false,
      WEBHOOK_ALLOW_LOOPBACK: false,
      WEBHOOK_RESPONSE_BODY_LIMIT_BYTES: 4096,
      WEBHOOK_SECRET_ENCRYPTION_KEY: DEV_WEBHOOK_SECRET_ENCRYPTION_KEY,
      DELIVERY_LEASE_MS: 25_000,
    });
  });

  it('keeps the attempt log at least as long as the 7-day health window', () => {
    expect(configSchema.parse(base).DELIVERY_RETENTION_DAYS).toBe(90);
    expect(
      configSchema.parse({ ...base, DELIVERY_RETENTION_DAYS: '7' }).DELIVERY_RETENTION_DAYS,
    ).toBe(7);
    expect(configSchema.safeParse({ ...base, DELIVERY_RETENTION_DAYS: '6' }).success).toBe(false);
  });

  it('requires its own encryption key in production', () => {
    const result = configSchema.safeParse({ ...base, NODE_ENV: 'production' });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('WEBHOOK_SECRET_ENCRYPTION_KEY');
  });

  it('refuses fewer waits than retries, junk short names and a missing Redis', () => {
    expect(
      configSchema.safeParse({
        ...base,
        WEBHOOK_RETRY_DELAYS_MS: '1000',
        WEBHOOK_MAX_ATTEMPTS: '3',
      }).success,
    ).toBe(false);
    expect(configSchema.safeParse({ ...base, WEBHOOK_SHORT_NAME: 'X-Evil\r\n' }).success).toBe(
      false,
    );
    expect(configSchema.safeParse({ ...base, REDIS_URL: undefined }).success).toBe(false);
  });
});
