import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTokenChecksum, TOKEN_PATTERN } from '@inventory/access';
import {
  createTenantWithToken,
  createUserWithToken,
  loginSession,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

describe('token secrets carry a checksum (ADR 0114)', () => {
  let system: RunningSystem;
  let owner: TenantFixture;

  beforeAll(async () => {
    system = await startSystem();
    owner = await createTenantWithToken(system);
  });
  afterAll(() => system?.stop());

  it('a token created in the web app keeps <id>|<random string>, matches the README pattern and verifies offline', async () => {
    const session = await loginSession(owner, system.gatewayUrl);
    const created = await session.request('POST', '/api/personal-access-tokens', {
      name: 'scanner check',
      scopes: [],
    });
    expect(created.status).toBe(201);
    const plain = created.body.data.token as string;
    expect(plain).toMatch(new RegExp(`^${created.body.data.id}\\|[A-Za-z0-9]{40,}$`));
    expect(`leaked: ${plain}.`.match(TOKEN_PATTERN)).toEqual([plain]);
    expect(hasTokenChecksum(plain)).toBe(true);
    expect(hasTokenChecksum(owner.token)).toBe(true);
    const me = await owner.withToken(plain)('GET', '/api/user');
    expect(me.status).toBe(200);
  });

  it('a token issued before the checksum (48 random characters) still authenticates', async () => {
    const user = await createUserWithToken(system, owner.tenant);
    const legacySecret = 'Ab3'.repeat(16);
    // The stored form of a token made before the checksum: the SHA-256 of its 48-character secret.
    await system.services
      .identity!.mongo.collection('personal_access_tokens')
      .updateOne(
        { tenant_id: owner.tenant.id, id: user.tokenId },
        { $set: { secret_hash: createHash('sha256').update(legacySecret).digest('hex') } },
      );
    const legacy = `${user.tokenId}|${legacySecret}`;
    expect(hasTokenChecksum(legacy)).toBe(false);
    const me = await user.withToken(legacy)('GET', '/api/user');
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(user.user.id);
    expect((await user.request('GET', '/api/user')).status).toBe(401);
  });
});
