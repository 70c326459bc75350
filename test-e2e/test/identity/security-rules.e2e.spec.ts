import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  createUserWithToken,
  httpCall,
  loginSession,
  previousStepCode,
  startSystem,
  totpCode,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

/** Rules that one changed line could break without any other test noticing. */
describe('security rules at their edges', () => {
  let system: RunningSystem;
  let owner: TenantFixture;

  beforeAll(async () => {
    system = await startSystem();
    owner = await createTenantWithToken(system, { slug: 'security-rules' });
  });
  afterAll(() => system?.stop());

  it(
    'a TOTP code is accepted once: replaying it within its window is refused, as used',
    { timeout: 90_000 },
    async () => {
      const user = await createUserWithToken(system, owner.tenant);
      const session = await loginSession(user, system.gatewayUrl);
      const enroll = await session.request('POST', '/api/user/two-factor');
      const secret = enroll.body.data.secret as string;
      const confirm = await session.request('POST', '/api/user/two-factor/confirm', {
        code: await previousStepCode(secret),
      });
      expect(confirm.status).toBe(200);

      const login = (code: string) =>
        httpCall(system.gatewayUrl, 'POST', '/auth/login', {
          host: user.host,
          body: { email: user.user.email, password: user.password, two_factor_code: code },
        });
      const code = totpCode(secret);
      expect((await login(code)).status).toBe(200);
      const replayed = await login(code);
      const wrong = await login('000000');
      expect(replayed.status).toBe(422);
      expect(wrong.status).toBe(422);
      // Refused like a wrong code (422, throttled alike), but told to wait for the next code: the
      // password already matched, so this tells nothing to someone without it (issue 43).
      expect(replayed.body.errors.two_factor_code).toEqual([
        'This two-factor code has already been used. Wait for the next code from your app.',
      ]);
      expect(wrong.body.errors.two_factor_code).toEqual([
        'The provided two factor authentication code was invalid.',
      ]);
    },
  );

  it('an expired token stops counting toward the 50 active tokens', async () => {
    const user = await createUserWithToken(system, owner.tenant);
    const session = await loginSession(user, system.gatewayUrl);
    const create = (body: Record<string, unknown>) =>
      session.request('POST', '/api/personal-access-tokens', body);
    // The fixture's own token is the first; 48 more and one that expires soon make 50.
    for (let i = 0; i < 48; i++) expect((await create({ name: `t${i}` })).status).toBe(201);
    const expiring = await create({
      name: 'expiring',
      expires_at: new Date(Date.now() + 3_000).toISOString(),
    });
    expect(expiring.status).toBe(201);
    const full = await create({ name: 'one too many' });
    expect(full.status).toBe(422);
    expect(full.body.code).toBe('token_limit_reached');

    // Once the short-lived token has expired, its slot is free again.
    await expect
      .poll(async () => (await create({ name: 'after expiry' })).status, {
        timeout: 60_000,
        interval: 500,
      })
      .toBe(201);
    const again = await create({ name: 'beyond fifty' });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('token_limit_reached');
  });
});
