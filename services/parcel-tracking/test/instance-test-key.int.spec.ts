import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import {
  as,
  failureOf,
  GOOD_KEY,
  OTHER_KEY,
  startReplica,
  startReplicaWithOpenBreaker,
} from './harness.js';

import { useInstanceSuite } from './instance-suite.js';

const suite = useInstanceSuite();
const { newTenant } = suite;

describe('TestApiKey', () => {
  it('returns the live quota of a good key and saves nothing', async () => {
    const tenant = newTenant();
    expect(
      await as(tenant, () =>
        suite.h.client.call.testApiKey({ input_violations: [], api_key: GOOD_KEY }),
      ),
    ).toEqual({
      quota: { used: 0, total: 1000, remaining: 1000 },
    });
    expect(await suite.h.stored('instances').countDocuments({ tenant_id: tenant })).toBe(0);
  });

  it('classifies a rejected key as invalid_key, with HTTP 200 or 401 from the provider', async () => {
    for (const style of ['http200', 'http401'] as const) {
      suite.h.sim.setAuthStyle(style);
      const failure = await failureOf(
        as(newTenant(), () =>
          suite.h.client.call.testApiKey({ input_violations: [], api_key: 'wrong_key_123' }),
        ),
      );
      expect(failure).toMatchObject({ code: status.FAILED_PRECONDITION, reason: 'invalid_key' });
    }
  });

  it('classifies 429, 5xx and other negative codes as api_error', async () => {
    // A replica of its own: three failures would bring the suite's breaker near opening for the
    // tests that follow.
    const replica = await startReplica(suite.h);
    try {
      for (const spec of [{ httpStatus: 429 }, { httpStatus: 503 }, { code: -18010013 }]) {
        suite.h.sim.failNext('getquota', spec);
        const failure = await failureOf(
          as(newTenant(), () =>
            replica.client.call.testApiKey({ input_violations: [], api_key: GOOD_KEY }),
          ),
        );
        expect(failure).toMatchObject({ code: status.FAILED_PRECONDITION, reason: 'api_error' });
      }
    } finally {
      await replica.stop();
    }
  });

  it("answers api_error at once while the key's breaker is open; another key is still asked", async () => {
    const replica = await startReplicaWithOpenBreaker(suite.h);
    try {
      const failure = await failureOf(
        as(newTenant(), () =>
          replica.client.call.testApiKey({ input_violations: [], api_key: GOOD_KEY }),
        ),
      );
      expect(failure).toMatchObject({
        reason: 'api_error',
        message: expect.stringMatching(/keeps failing calls with this API key/),
      });
      const other = await as(newTenant(), () =>
        replica.client.call.testApiKey({ input_violations: [], api_key: OTHER_KEY }),
      );
      expect(other.quota).toMatchObject({ total: 50 });
    } finally {
      await replica.stop();
    }
  });

  it('validates the key length: missing, empty, 7 and 256 characters', async () => {
    for (const apiKey of [undefined, '', 'a'.repeat(7), 'a'.repeat(256)]) {
      const failure = await failureOf(
        as(newTenant(), () =>
          suite.h.client.call.testApiKey({ input_violations: [], api_key: apiKey }),
        ),
      );
      expect(failure.code).toBe(status.INVALID_ARGUMENT);
      expect(failure.fieldViolations.map((v) => v.field)).toEqual(['api_key']);
    }
  });
});
