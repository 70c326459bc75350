import type { GatewayHandle } from '@inventory/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  createUserWithToken,
  httpCall,
  loginSession,
  startSecondGateway,
  startSystem,
  previousStepCode,
  totpCode as totp,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

/**
 * ADR 0109: both replicas answer `GET /api/user` from their user cache, with a TTL no test
 * reaches, so only identity's `identity.user.changed` event can make them show a change.
 */
describe('a user change shows on the next GET /api/user in every gateway replica', () => {
  let system: RunningSystem;
  let second: GatewayHandle;
  let a: TenantFixture;

  beforeAll(async () => {
    system = await startSystem({ gatewayEnv: { TOKEN_CACHE_TTL_MS: String(60 * 60_000) } });
    second = await startSecondGateway(system);
    a = await createTenantWithToken(system, { slug: 'user-cache' });
  });
  afterAll(async () => {
    await second?.stop();
    await system?.stop();
  });

  it('turning two-factor on and off through one replica shows at once on both', async () => {
    const user = await createUserWithToken(system, a.tenant);
    const replicas = [system.gateway, second];
    const current = (gateway: GatewayHandle) =>
      httpCall(gateway.url, 'GET', '/api/user', {
        host: user.host,
        headers: { authorization: `Bearer ${user.token}` },
      });
    const twoFactorOnBoth = async () => {
      const answers = await Promise.all(replicas.map(current));
      for (const answer of answers) expect(answer.status).toBe(200);
      return answers.map((answer) => answer.body.data.two_factor_enabled as boolean);
    };

    expect(await twoFactorOnBoth()).toEqual([false, false]);
    // Both replicas now answer from their cache: the event, not a reload, has to reach them.
    for (const gateway of replicas)
      expect(gateway.auth.users.cached(a.tenant.id, user.user.id)).toMatchObject({
        id: user.user.id,
        two_factor_enabled: false,
      });

    const session = await loginSession(user, second.url);
    const secret = (await session.request('POST', '/api/user/two-factor')).body.data
      .secret as string;
    const confirm = await session.request('POST', '/api/user/two-factor/confirm', {
      code: await previousStepCode(secret),
    });
    expect(confirm.status).toBe(200);
    expect(await twoFactorOnBoth()).toEqual([true, true]);

    const disable = await session.request('DELETE', '/api/user/two-factor', {
      password: user.password,
      code: totp(secret),
    });
    expect(disable.status).toBe(204);
    expect(await twoFactorOnBoth()).toEqual([false, false]);
  });
});
