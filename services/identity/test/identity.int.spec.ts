import type { IdentityServiceClient } from '@inventory/contracts/identity/v1/identity.js';
import { type TestInfra } from '@inventory/local-infra';
import { describeCallError, type GrpcClientHandle, type ServiceRuntime } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDevelopment } from '../src/dev/seed-development.js';
import { as, startIdentity, type IdentityUnderTest } from './harness.js';

describe('identity service over gRPC', () => {
  let identity: IdentityUnderTest;
  let infra: TestInfra;
  let service: ServiceRuntime;
  let client: GrpcClientHandle<IdentityServiceClient>;
  let dbName: string;

  beforeAll(async () => {
    identity = await startIdentity();
    ({ infra, service, client, dbName } = identity);
  });
  afterAll(async () => {
    await identity?.stop();
  });

  it('resolves tenants by default and custom domain, and refuses duplicates', async () => {
    const { tenant } = await client.call.createTenant({
      slug: 'Acme',
      name: 'Acme',
      custom_domains: ['Shop.Acme.TEST'],
    });
    expect(tenant!.domains).toEqual(['acme.inventory.localhost', 'shop.acme.test']);
    expect((await client.call.resolveTenant({ host: 'shop.acme.test' })).tenant!.slug).toBe('acme');
    const missing = await client.call
      .resolveTenant({ host: 'nope.test' })
      .catch((error: unknown) => describeCallError(error));
    expect(missing).toMatchObject({ reason: 'not_found' });
    const duplicate = await client.call
      .createTenant({ slug: 'acme', name: '', custom_domains: [] })
      .catch((error: unknown) => describeCallError(error));
    expect(duplicate).toMatchObject({
      reason: 'validation_failed',
      fieldViolations: [{ field: 'slug', description: 'The slug has already been taken.' }],
    });
  });

  it("keeps tenants apart: another tenant's user and tokens are invisible", async () => {
    const { tenant: a } = await client.call.createTenant({
      slug: 'iso-a',
      name: '',
      custom_domains: [],
    });
    const { tenant: b } = await client.call.createTenant({
      slug: 'iso-b',
      name: '',
      custom_domains: [],
    });
    const { user } = await as(a!.id, undefined, () =>
      client.call.createUser({
        email: 'x@a.test',
        name: 'X',
        password: 'password-1',
        is_owner: true,
        permissions: [],
      }),
    );
    const created = await as(a!.id, user!.id, () =>
      client.call.createToken({
        name: 't',
        scopes: ['orders:read'],
        ip_allowlist: [],
        input_violations: [],
      }),
    );
    const tokenId = created.token!.id;
    expect(
      (await as(a!.id, undefined, () => client.call.getTokenForAuth({ token_id: tokenId }))).token!
        .secret_hash,
    ).toMatch(/^[0-9a-f]{64}$/);
    for (const call of [
      () => as(b!.id, undefined, () => client.call.getTokenForAuth({ token_id: tokenId })),
      () => as(b!.id, user!.id, () => client.call.getUser({})),
      () => as(b!.id, user!.id, () => client.call.revokeToken({ id: tokenId })),
      () =>
        as(b!.id, user!.id, () =>
          client.call.updateToken({ id: tokenId, name: 'stolen', input_violations: [] }),
        ),
    ]) {
      expect(await call().catch((error: unknown) => describeCallError(error).reason)).toBe(
        'not_found',
      );
    }
    // Without tenant metadata nothing tenant-scoped runs.
    expect(
      await client.call
        .getTokenForAuth({ token_id: tokenId })
        .catch((error: unknown) => describeCallError(error).reason),
    ).toBe('tenant_missing');
    // The secret is never stored: only its hash.
    const raw = await service.mongo.collection('personal_access_tokens').findOne({ id: tokenId });
    expect(JSON.stringify(raw)).not.toContain(created.plain_text_token.split('|')[1]);
  });

  it('seedDevelopment is idempotent and hands out a working token each run', async () => {
    const options = {
      mongoUrl: infra.mongoUrl,
      dbName,
      slug: 'dev',
      email: 'Owner@Dev.test',
      password: 'development-password',
      publicPort: 8080,
    };
    const first = await seedDevelopment(options);
    const second = await seedDevelopment(options);
    expect(second.tenant.id).toBe(first.tenant.id);
    expect(second).toMatchObject({
      host: 'dev.inventory.localhost',
      base_url: 'http://dev.inventory.localhost:8080',
      email: 'owner@dev.test',
      password: 'development-password',
    });
    expect(second.token).not.toBe(first.token);
    const [firstId] = first.token.split('|');
    const [secondId] = second.token.split('|');
    expect(
      await as(first.tenant.id, undefined, () =>
        client.call.getTokenForAuth({ token_id: Number(firstId) }),
      ).catch((error: unknown) => describeCallError(error).reason),
    ).toBe('not_found');
    const auth = await as(first.tenant.id, undefined, () =>
      client.call.getTokenForAuth({ token_id: Number(secondId) }),
    );
    expect(auth.token!.scopes).toHaveLength(16); // the 15 of the specification and webhooks:read (ADR 0413)
    expect(auth.token!.user_is_owner).toBe(true);
    const login = await as(first.tenant.id, undefined, () =>
      client.call.login({ email: 'owner@dev.test', password: 'development-password' }),
    );
    expect(login.csrf_token.length).toBeGreaterThan(20);
  });
});
