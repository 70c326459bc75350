import { eventually } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminEnv,
  createTenantWithToken,
  npmRunAdmin as admin,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

// Issue 18 item 9: the operator's revocation must reach the gateways before the command returns.
describe('npm run admin -- revoke-token, against a running gateway', { timeout: 240_000 }, () => {
  let system: RunningSystem;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // A token record cached for a minute: only the invalidation event can explain a refusal.
    system = await startSystem({ gatewayEnv: { TOKEN_CACHE_TTL_MS: '60000' } });
    env = adminEnv(system);
  });
  afterAll(() => system?.stop());

  const cachedToken = async (): Promise<TenantFixture> => {
    const fixture = await createTenantWithToken(system);
    expect((await fixture.request('GET', '/api/user')).status).toBe(200);
    return fixture;
  };

  it('returns only once the gateway refuses the token', async () => {
    const fixture = await cachedToken();
    const revoked = await admin(
      ['revoke-token', '--tenant', fixture.tenant.slug, '--id', String(fixture.tokenId)],
      env,
    );
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: fixture.tokenId });
    // The very next request, with no wait: refused.
    const after = await fixture.request('GET', '/api/user');
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('The access token is invalid, expired or revoked.');
  });

  it('says so (exit 1) when NATS cannot be reached; the revocation still stands and reaches the gateways', async () => {
    const fixture = await cachedToken();
    const revoked = await admin(
      ['revoke-token', '--tenant', fixture.tenant.slug, '--id', String(fixture.tokenId)],
      { ...env, NATS_URL: 'nats://127.0.0.1:1' },
    );
    expect(revoked.code).toBe(1);
    expect(JSON.parse(revoked.stderr.slice(revoked.stderr.indexOf('{')))).toMatchObject({
      reason: 'gateways_not_notified',
    });
    // The identity service's outbox relay publishes the event the command recorded.
    await eventually(
      async () => expect((await fixture.request('GET', '/api/user')).status).toBe(401),
      { what: 'the revocation to reach the gateway', timeoutMs: 30_000 },
    );
  });
});
