import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectMongo } from '@inventory/platform';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenDocument } from '../src/store/token.js';
import { TokenRepository } from '../src/store/token-repository.js';

// Token ids are unique across tenants, so an id alone names another tenant's token: only the
// repository's tenant filter keeps a caller of one tenant from changing it.
describe('TokenRepository keeps each tenant to its own tokens', () => {
  let infra: TestInfra;
  let connection: Connection;
  let tokens: TokenRepository;
  const created = new Date('2026-01-05T10:00:00Z');

  beforeAll(async () => {
    infra = await startTestInfra({ nats: false, redis: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('token-repository'));
    tokens = new TokenRepository(connection);
  });
  afterAll(async () => {
    await connection?.close();
    await infra?.stop();
  });

  const token = (tenantId: string, id: number, userId: number): TokenDocument => ({
    tenant_id: tenantId,
    id,
    user_id: userId,
    name: `token-${id}`,
    secret_hash: `${id}`.padStart(64, '0'),
    scopes: ['orders:read'],
    ip_allowlist: [],
    rate_limit_per_minute: null,
    expires_at: null,
    revoked_at: null,
    last_used_at: null,
    created_at: created,
    updated_at: created,
  });
  const stored = (id: number) =>
    connection.collection('personal_access_tokens').findOne({ id }, { projection: { _id: 0 } });

  it("does not update another tenant's token, even for a user id that exists in both", async () => {
    await tokens.insertAll('tenant-a', [token('tenant-a', 1_001, 7)]);
    await tokens.insertAll('tenant-b', [token('tenant-b', 1_002, 7)]);

    expect(await tokens.update('tenant-b', 7, 1_001, { name: 'taken over' })).toBeNull();
    expect(await stored(1_001)).toEqual(token('tenant-a', 1_001, 7));
    // The owner's own update still goes through (the test would pass vacuously otherwise).
    const own = await tokens.update('tenant-a', 7, 1_001, { name: 'renamed' });
    expect(own?.name).toBe('renamed');
  });

  it("does not revoke another tenant's token, neither as its user's id nor as an operator", async () => {
    await tokens.insertAll('tenant-a', [token('tenant-a', 2_001, 7)]);

    expect(await tokens.revoke('tenant-b', 7, 2_001)).toBeNull();
    expect(await tokens.revoke('tenant-b', undefined, 2_001)).toBeNull();
    expect(await stored(2_001)).toEqual(token('tenant-a', 2_001, 7));

    const own = await tokens.revoke('tenant-a', undefined, 2_001);
    expect(own?.id).toBe(2_001);
    expect(own?.revoked_at).toBeInstanceOf(Date);
    expect((await stored(2_001))?.revoked_at).toEqual(own?.revoked_at);
  });

  it("does not count, find or remove another tenant's tokens", async () => {
    await tokens.insertAll('tenant-c', [token('tenant-c', 3_001, 9), token('tenant-c', 3_002, 9)]);

    expect(await tokens.countActive('tenant-d', 9)).toBe(0);
    expect(await tokens.findForAuth('tenant-d', 3_001)).toBeNull();
    expect(await tokens.findUnrevoked('tenant-d', 3_001)).toBeNull();
    await tokens.remove('tenant-d', 3_002);
    expect(await stored(3_002)).toEqual(token('tenant-c', 3_002, 9));
    expect(await tokens.countActive('tenant-c', 9)).toBe(2);
  });
});
