import { ConfigError } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';

const REQUIRED = {
  REDIS_URL: 'redis://127.0.0.1:6379',
  NATS_URL: 'nats://127.0.0.1:4222',
  IDENTITY_GRPC_ADDRESS: '127.0.0.1:1',
  PARCEL_TRACKING_GRPC_ADDRESS: '127.0.0.1:2',
  WEBHOOK_INGEST_GRPC_ADDRESS: '127.0.0.1:3',
  OUTBOUND_DELIVERY_GRPC_ADDRESS: '127.0.0.1:4',
  ACTIVITY_GRPC_ADDRESS: '127.0.0.1:5',
  CATALOG_GRPC_ADDRESS: '127.0.0.1:6',
};

describe('DEV_LOOPBACK_TENANT (the development tenant on 127.0.0.1 / localhost)', () => {
  it('is off unless set', () => {
    expect(readConfig(REQUIRED).DEV_LOOPBACK_TENANT).toBeUndefined();
  });

  it('takes a tenant slug in development', () => {
    expect(readConfig({ ...REQUIRED, DEV_LOOPBACK_TENANT: 'dev' }).DEV_LOOPBACK_TENANT).toBe('dev');
    expect(() => readConfig({ ...REQUIRED, DEV_LOOPBACK_TENANT: 'Not a slug' })).toThrow(
      /DEV_LOOPBACK_TENANT/,
    );
  });

  it('is refused when NODE_ENV=production, naming the variable', () => {
    const refused = () =>
      readConfig({ ...REQUIRED, NODE_ENV: 'production', DEV_LOOPBACK_TENANT: 'dev' });
    expect(refused).toThrow(ConfigError);
    expect(refused).toThrow(/DEV_LOOPBACK_TENANT.*refused when NODE_ENV=production/);
    expect(readConfig({ ...REQUIRED, NODE_ENV: 'production' }).DEV_LOOPBACK_TENANT).toBeUndefined();
  });
});
