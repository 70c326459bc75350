import { randomBytes } from 'node:crypto';
import type { IdentityServiceClient } from '@inventory/contracts/identity/v1/identity.js';
import { type TestInfra } from '@inventory/local-infra';
import {
  describeCallError,
  type GrpcClientHandle,
  type ServiceRuntime,
  SecretBox,
} from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTotpSecret, totp } from '../src/domain/totp.js';
import { openOffline } from '../src/offline.js';
import { as, startIdentity, type IdentityUnderTest } from './harness.js';

/** A session id as login issues it: 32 random bytes, base64url (a login that failed has none). */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const KEY = randomBytes(32).toString('base64');
const PASSWORD = 'correct horse battery staple';

/** ADR 0106: TOTP secrets (pending and confirmed) are AES-256-GCM sealed in `users`. */
describe('TOTP secrets at rest', () => {
  let identity: IdentityUnderTest;
  let infra: TestInfra;
  let service: ServiceRuntime;
  let client: GrpcClientHandle<IdentityServiceClient>;
  let dbName: string;
  let tenantId: string;

  beforeAll(async () => {
    identity = await startIdentity({ IDENTITY_SECRET_ENCRYPTION_KEY: KEY });
    ({ infra, service, client, dbName } = identity);
    const { tenant } = await client.call.createTenant({
      slug: 'atrest',
      name: 'At rest',
      custom_domains: [],
    });
    tenantId = tenant!.id;
  });
  afterAll(async () => {
    await identity?.stop();
  });

  const users = () => service.mongo.collection('users');
  const newUser = async () => {
    const email = `u-${randomBytes(4).toString('hex')}@atrest.test`;
    const { user } = await as(tenantId, undefined, () =>
      client.call.createUser({
        email,
        name: 'U',
        password: PASSWORD,
        is_owner: true,
        permissions: [],
      }),
    );
    return { id: user!.id, email };
  };
  const login = (email: string, code?: string) =>
    as(tenantId, undefined, () =>
      client.call.login({ email, password: PASSWORD, two_factor_code: code }),
    );

  it('never stores the base32 secret, and enrollment, confirmation and login still work', async () => {
    const { id, email } = await newUser();
    const { secret } = await as(tenantId, id, () => client.call.enrollTwoFactor({}));
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const pending = await users().findOne({ tenant_id: tenantId, id });
    expect(JSON.stringify(pending)).not.toContain(secret);
    expect(pending!.two_factor_pending_secret).toMatch(/^v1:/);
    expect(new SecretBox(KEY).decrypt(pending!.two_factor_pending_secret as string)).toBe(secret);

    const confirmed = await as(tenantId, id, () =>
      client.call.confirmTwoFactor({ code: totp(secret, Date.now() - 30_000) }),
    );
    expect(confirmed.recovery_codes).toHaveLength(8);
    const enabled = await users().findOne({ tenant_id: tenantId, id });
    expect(enabled!.two_factor_enabled).toBe(true);
    expect(enabled!.two_factor_pending_secret).toBeNull();
    expect(enabled!.two_factor_secret).toMatch(/^v1:/);
    // Re-sealed with a fresh IV, not the pending value copied over.
    expect(enabled!.two_factor_secret).not.toBe(pending!.two_factor_pending_secret);
    expect(JSON.stringify(enabled)).not.toContain(secret);

    const wrong = await login(email, '000000').catch((error: unknown) => describeCallError(error));
    expect(wrong).toMatchObject({ reason: 'invalid_credentials' });
    expect((await login(email, totp(secret))).session_token).toMatch(SESSION_TOKEN);

    await as(tenantId, id, () =>
      client.call.disableTwoFactor({ password: PASSWORD, code: totp(secret, Date.now() + 30_000) }),
    );
    const disabled = await users().findOne({ tenant_id: tenantId, id });
    expect(disabled).toMatchObject({ two_factor_enabled: false, two_factor_secret: null });
  });

  it('accepts a secret stored in plaintext before encryption and seals it on its next use', async () => {
    const { id, email } = await newUser();
    const secret = newTotpSecret();
    await users().updateOne(
      { tenant_id: tenantId, id },
      { $set: { two_factor_enabled: true, two_factor_secret: secret, two_factor_last_step: 0 } },
    );
    expect((await login(email, totp(secret))).session_token).toMatch(SESSION_TOKEN);
    const sealed = await users().findOne({ tenant_id: tenantId, id });
    expect(sealed!.two_factor_secret).toMatch(/^v1:/);
    expect(JSON.stringify(sealed)).not.toContain(secret);
    // The sealed secret keeps working (next step: the previous one cannot be replayed).
    expect((await login(email, totp(secret, Date.now() + 30_000))).session_token).toMatch(
      SESSION_TOKEN,
    );
  });

  it('fails closed when the key is not the one the secret was sealed with; recovery codes still work', async () => {
    const { id, email } = await newUser();
    const { secret } = await as(tenantId, id, () => client.call.enrollTwoFactor({}));
    const { recovery_codes } = await as(tenantId, id, () =>
      client.call.confirmTwoFactor({ code: totp(secret, Date.now() - 30_000) }),
    );
    const other = await openOffline({
      mongoUrl: infra.mongoUrl,
      dbName,
      secretEncryptionKey: randomBytes(32).toString('base64'),
    });
    try {
      const input = { email, password: PASSWORD };
      const refused = await other.useCases.login
        .execute(tenantId, { ...input, twoFactorCode: totp(secret) })
        .catch((error: unknown) => describeCallError(error));
      expect(refused).toMatchObject({ reason: 'invalid_credentials' });
      const viaRecovery = await other.useCases.login.execute(tenantId, {
        ...input,
        twoFactorCode: recovery_codes[0]!,
      });
      expect(viaRecovery.sessionToken).toMatch(SESSION_TOKEN);
    } finally {
      await other.close();
    }
  });
});
