import { status as GrpcStatus } from '@grpc/grpc-js';
import { IdentityServiceClient } from '@inventory/contracts/identity/v1/identity.js';
import {
  connectMongo,
  createGrpcClient,
  describeCallError,
  type GrpcClientHandle,
  type ServiceRuntime,
} from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import type { TokenDocument } from '../src/store/token.js';
import { TokenRepository } from '../src/store/token-repository.js';
import { as, startIdentity, type IdentityUnderTest } from './harness.js';

describe('the 50-active-token limit across two identity replicas', () => {
  let first: IdentityUnderTest;
  let second: ServiceRuntime;
  let secondClient: GrpcClientHandle<IdentityServiceClient>;

  beforeAll(async () => {
    first = await startIdentity();
    // A second replica on the same database: only the lease on the user keeps them apart.
    second = await bootstrap({
      MONGO_URL: first.infra.mongoUrl,
      MONGO_DB: first.dbName,
      NATS_URL: first.infra.natsUrl,
      LOG_LEVEL: 'silent',
    });
    secondClient = createGrpcClient(IdentityServiceClient, second.grpc!.address);
  });
  afterAll(async () => {
    secondClient?.close();
    await second?.stop();
    await first?.stop();
  });

  async function newUser(slug: string) {
    const { tenant } = await first.client.call.createTenant({ slug, name: '', custom_domains: [] });
    const { user } = await as(tenant!.id, undefined, () =>
      first.client.call.createUser({
        email: `owner@${slug}.test`,
        name: 'Owner',
        password: 'password-1',
        is_owner: true,
        permissions: [],
      }),
    );
    return { tenantId: tenant!.id, userId: user!.id };
  }

  it('creates exactly 50 of 80 concurrent creations split over both replicas, and refuses the rest', async () => {
    const { tenantId, userId } = await newUser('limit-replicas');
    const outcomes = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        as(tenantId, userId, () =>
          (i % 2 === 0 ? first.client : secondClient).call.createToken({
            name: `t${i}`,
            scopes: ['orders:read'],
            ip_allowlist: [],
            input_violations: [],
          }),
        ).then(
          (created) => ({ created }),
          (error: unknown) => ({ refused: describeCallError(error).reason }),
        ),
      ),
    );
    const created = outcomes.flatMap((outcome) => ('created' in outcome ? [outcome.created] : []));
    const refused = outcomes.flatMap((outcome) => ('refused' in outcome ? [outcome.refused] : []));
    expect(created).toHaveLength(50);
    expect(refused).toEqual(Array.from({ length: 30 }, () => 'token_limit_reached'));
    // Each created token is distinct and holds its own secret.
    expect(new Set(created.map((response) => response.token!.id)).size).toBe(50);
    for (const response of created)
      expect(response.plain_text_token.startsWith(`${response.token!.id}|`)).toBe(true);
    const stored = await first.service.mongo
      .collection('personal_access_tokens')
      .countDocuments({ tenant_id: tenantId, user_id: userId, revoked_at: null });
    expect(stored).toBe(50);
  });

  it('brings back expired tokens by regenerate only into free slots, under the same lease, across both replicas', async () => {
    const { tenantId, userId } = await newUser('limit-regenerate');
    const create = (name: string) =>
      as(tenantId, userId, () =>
        first.client.call.createToken({
          name,
          scopes: ['orders:read'],
          ip_allowlist: [],
          input_violations: [],
        }),
      );
    const expired = [];
    for (let i = 0; i < 10; i++) expired.push((await create(`old${i}`)).token!.id);
    await first.service.mongo
      .collection('personal_access_tokens')
      .updateMany(
        { tenant_id: tenantId, id: { $in: expired } },
        { $set: { expires_at: new Date(Date.now() - 60_000) } },
      );
    // 48 active: two slots left for ten expired tokens brought back at once.
    for (let i = 0; i < 48; i++) await create(`live${i}`);
    const outcomes = await Promise.all(
      expired.map((id, i) =>
        as(tenantId, userId, () =>
          (i % 2 === 0 ? first.client : secondClient).call.regenerateToken({
            id,
            expires_at: new Date(Date.now() + 86_400_000),
            input_violations: [],
          }),
        ).then(
          () => 'regenerated',
          (error: unknown) => describeCallError(error).reason,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'regenerated')).toHaveLength(2);
    expect(outcomes.filter((outcome) => outcome === 'token_limit_reached')).toHaveLength(8);
    const active = await first.service.mongo.collection('personal_access_tokens').countDocuments({
      tenant_id: tenantId,
      user_id: userId,
      revoked_at: null,
      $or: [{ expires_at: null }, { expires_at: { $gt: new Date() } }],
    });
    expect(active).toBe(50);
  });

  it("refuses an invalid creation alone, without failing the burst it arrived in or another user's creation", async () => {
    const busy = await newUser('limit-busy');
    const other = await newUser('limit-other');
    const burst = Array.from({ length: 30 }, (_, i) =>
      as(busy.tenantId, busy.userId, () =>
        first.client.call.createToken({
          name: `b${i}`,
          scopes: ['orders:read'],
          ip_allowlist: [],
          input_violations: [],
        }),
      ),
    );
    const invalid = as(busy.tenantId, busy.userId, () =>
      first.client.call.createToken({
        name: 'bad',
        scopes: ['no:such'],
        ip_allowlist: [],
        input_violations: [],
      }),
    ).catch((error: unknown) => describeCallError(error).reason);
    const elsewhere = await as(other.tenantId, other.userId, () =>
      first.client.call.createToken({
        name: 'o',
        scopes: ['orders:read'],
        ip_allowlist: [],
        input_violations: [],
      }),
    );
    expect(elsewhere.token!.name).toBe('o');
    expect(await invalid).toBe('validation_failed');
    expect(await Promise.all(burst)).toHaveLength(30);
  });

  it('does not create the token of a caller that gave up while it waited for the lease', async () => {
    const { tenantId, userId } = await newUser('limit-gone');
    const users = first.service.mongo.collection('users');
    // Another replica holds the user's lease for a while.
    await users.updateOne(
      { tenant_id: tenantId, id: userId },
      { $set: { token_lock_owner: 'other-replica', token_lock_until: new Date(Date.now() + 600) } },
    );
    const impatient = createGrpcClient(IdentityServiceClient, first.service.grpc!.address, {
      deadlineMs: 150,
    });
    try {
      const gaveUp = await as(tenantId, userId, () =>
        impatient.call.createToken({
          name: 'late',
          scopes: ['orders:read'],
          ip_allowlist: [],
          input_violations: [],
        }),
      ).catch((error: unknown) => describeCallError(error).code);
      expect(gaveUp).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    } finally {
      impatient.close();
    }
    // Once the lease is free, the next creation goes through; the abandoned one never does.
    const next = await as(tenantId, userId, () =>
      first.client.call.createToken({
        name: 'next',
        scopes: ['orders:read'],
        ip_allowlist: [],
        input_violations: [],
      }),
    );
    expect(next.token!.name).toBe('next');
    const names = await first.service.mongo
      .collection('personal_access_tokens')
      .find({ tenant_id: tenantId, user_id: userId })
      .map((token) => token.name as string)
      .toArray();
    expect(names).toEqual(['next']);
  });

  it('stores a group all or none: a failed insert removes the tokens it had already written', async () => {
    const connection = await connectMongo(first.infra.mongoUrl, first.dbName);
    try {
      const tokens = new TokenRepository(connection);
      const now = new Date();
      const token = (id: number, secretHash: string): TokenDocument => ({
        tenant_id: 'group-test',
        id,
        user_id: 1,
        name: `t${id}`,
        secret_hash: secretHash,
        scopes: [],
        ip_allowlist: [],
        rate_limit_per_minute: null,
        expires_at: null,
        revoked_at: null,
        last_used_at: null,
        created_at: now,
        updated_at: now,
      });
      await tokens.insertAll('group-test', [token(900_001, 'a'.repeat(64))]);
      // The second collides with the stored one (secret_hash is unique); the first was written.
      await expect(
        tokens.insertAll('group-test', [
          token(900_002, 'b'.repeat(64)),
          token(900_003, 'a'.repeat(64)),
        ]),
      ).rejects.toThrow(/duplicate key/);
      expect(
        (
          await connection
            .collection('personal_access_tokens')
            .find({ tenant_id: 'group-test' })
            .toArray()
        ).map((stored) => stored.id),
      ).toEqual([900_001]);
    } finally {
      await connection.close();
    }
  });
});
