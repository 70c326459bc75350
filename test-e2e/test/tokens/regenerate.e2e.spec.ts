import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTokenChecksum, TOKEN_EXPIRATION_HEADER } from '@inventory/access';
import {
  createUserWithToken,
  createTenantWithToken,
  httpCall,
  loginSession,
  startSecondGateway,
  startSystem,
  type RunningSystem,
  type SessionFixture,
  type TenantFixture,
} from '../../src/index.js';
import type { GatewayHandle } from '@inventory/gateway';

const TOKENS = '/api/personal-access-tokens';
const DAY = 24 * 3600 * 1000;
const expiryHeader = TOKEN_EXPIRATION_HEADER.toLowerCase();

describe('regenerating a token (ADR 0116)', () => {
  let system: RunningSystem;
  let owner: TenantFixture;
  let session: SessionFixture;
  let replica: GatewayHandle;

  beforeAll(async () => {
    system = await startSystem();
    owner = await createTenantWithToken(system);
    session = await loginSession(owner, system.gatewayUrl);
    replica = await startSecondGateway(system);
  });
  afterAll(async () => {
    await replica?.stop();
    await system?.stop();
  });

  const create = async (body: Record<string, unknown>) => {
    const created = await session.request('POST', TOKENS, body);
    expect(created.status).toBe(201);
    return created.body.data as { id: number; token: string; [key: string]: unknown };
  };
  const onReplica = (token: string) =>
    httpCall(replica.url, 'GET', '/api/user', {
      host: owner.host,
      headers: { authorization: `Bearer ${token}` },
    });

  it('gives a new secret for the same settings and a new expiry; the old secret fails on the next request on every replica', async () => {
    const first = await create({
      name: 'deploy bot',
      scopes: ['products:read'],
      ip_allowlist: ['0.0.0.0/0', '::/0'],
      rate_limit_per_minute: 100,
      expires_at: new Date(Date.now() + 2 * DAY).toISOString(),
    });
    expect((await owner.withToken(first.token)('GET', '/api/user')).status).toBe(200);
    expect((await onReplica(first.token)).status).toBe(200);

    const newExpiry = new Date(Date.now() + 30 * DAY);
    newExpiry.setUTCMilliseconds(0);
    const regenerated = await session.request('POST', `${TOKENS}/${first.id}/regenerate`, {
      expires_at: newExpiry.toISOString(),
    });
    expect(regenerated.status).toBe(200);
    const data = regenerated.body.data;
    expect(data).toMatchObject({
      id: first.id,
      name: 'deploy bot',
      scopes: ['products:read'],
      ip_allowlist: ['0.0.0.0/0', '::/0'],
      rate_limit_per_minute: 100,
      expires_at: newExpiry.toISOString(),
    });
    expect(data.token).not.toBe(first.token);
    expect(data.token.startsWith(`${first.id}|`)).toBe(true);
    expect(hasTokenChecksum(data.token)).toBe(true);

    expect((await owner.withToken(first.token)('GET', '/api/user')).status).toBe(401);
    expect((await onReplica(first.token)).status).toBe(401);
    const fresh = await owner.withToken(data.token)('GET', '/api/user');
    expect(fresh.status).toBe(200);
    expect(fresh.headers[expiryHeader]).toBe(newExpiry.toISOString());
    expect((await onReplica(data.token)).status).toBe(200);

    // Shown once: the list never carries a secret.
    const listed = await session.request('GET', TOKENS);
    const row = listed.body.data.find((token: { id: number }) => token.id === first.id);
    expect(row).not.toHaveProperty('token');
    expect(row.expires_at).toBe(newExpiry.toISOString());
  });

  it('without expires_at the new secret never expires; an expired token can be brought back', async () => {
    const expiring = await createUserWithToken(system, owner.tenant, {
      token: { expiresAt: new Date(Date.now() + DAY) },
    });
    // Expired a minute ago, without waiting for it.
    await system.services
      .identity!.mongo.collection('personal_access_tokens')
      .updateOne(
        { tenant_id: owner.tenant.id, id: expiring.tokenId },
        { $set: { expires_at: new Date(Date.now() - 60_000) } },
      );
    expect((await expiring.request('GET', '/api/user')).status).toBe(401);
    const theirSession = await loginSession(expiring, system.gatewayUrl);
    const regenerated = await theirSession.request(
      'POST',
      `${TOKENS}/${expiring.tokenId}/regenerate`,
      {},
    );
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.data.expires_at).toBeNull();
    const used = await expiring.withToken(regenerated.body.data.token)('GET', '/api/user');
    expect(used.status).toBe(200);
    expect(used.headers).not.toHaveProperty(expiryHeader);
  });

  it('adding a write scope through it needs the password, and a refusal changes nothing', async () => {
    const token = await create({ name: 'reader', scopes: ['products:read'] });
    const path = `${TOKENS}/${token.id}/regenerate`;
    const elevated = { scopes: ['products:read', 'products:write'] };

    const missing = await session.request('POST', path, elevated);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveProperty('password');
    const wrong = await session.request('POST', path, { ...elevated, password: 'not-it' });
    expect(wrong.status).toBe(403);
    expect((await owner.withToken(token.token)('GET', '/api/user')).status).toBe(200);

    const allowed = await session.request('POST', path, { ...elevated, password: owner.password });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.scopes).toEqual(['products:read', 'products:write']);
    expect((await owner.withToken(token.token)('GET', '/api/user')).status).toBe(401);
  });

  it('is session only, 404 for another user’s token, and 422 for bad input', async () => {
    const colleague = await createUserWithToken(system, owner.tenant);
    expect(
      (await session.request('POST', `${TOKENS}/${colleague.tokenId}/regenerate`, {})).status,
    ).toBe(404);
    expect((await colleague.request('GET', '/api/user')).status).toBe(200);
    const byToken = await owner.request('POST', `${TOKENS}/${owner.tokenId}/regenerate`, {});
    expect(byToken.status).toBe(403);
    const past = await session.request('POST', `${TOKENS}/${owner.tokenId}/regenerate`, {
      expires_at: new Date(Date.now() - DAY).toISOString(),
    });
    expect(past.status).toBe(422);
    expect(past.body.errors).toHaveProperty('expires_at');
    const mistyped = await session.request('POST', `${TOKENS}/${owner.tokenId}/regenerate`, {
      name: 5,
      scopes: 'all',
    });
    expect(mistyped.status).toBe(422);
    expect(Object.keys(mistyped.body.errors).sort()).toEqual(['name', 'scopes']);
    expect((await owner.request('GET', '/api/user')).status).toBe(200);
  });
});
