import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config.js';
import { serviceEnv } from './env-fields.js';

const schema = z.object(serviceEnv);

describe('loadConfig', () => {
  it('returns a typed object with defaults applied', () => {
    const config = loadConfig(schema, {
      MONGO_URL: 'mongodb://127.0.0.1:27017',
      NATS_URL: 'nats://127.0.0.1:4222',
    });
    expect(config.GRPC_PORT).toBe(0);
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('names a missing variable', () => {
    expect(() => loadConfig(schema, { NATS_URL: 'nats://127.0.0.1:4222' })).toThrowError(
      /MONGO_URL: is required but missing/,
    );
  });

  it('names a variable with a bad value, and reports every problem at once', () => {
    try {
      loadConfig(schema, {
        MONGO_URL: 'http://wrong',
        NATS_URL: 'nats://x:1',
        GRPC_PORT: 'seventy',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toMatch(/MONGO_URL: must be a mongodb or mongodb\+srv URL/);
      expect(message).toMatch(/GRPC_PORT:/);
    }
  });
});
