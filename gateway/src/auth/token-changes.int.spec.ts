import {
  RegenerateTokenRequest,
  UpdateTokenRequest,
} from '@inventory/contracts/identity/v1/identity.js';
import { createLogger, runWithContext } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityAdapter, type IdentityAdapter } from '../adapters/identity.js';
import { FAILING_TOKEN_ID, startFakeIdentity } from './fake-identity.test-util.js';
import { TokenCache } from './token-cache.js';
import { droppingChangedTokens } from './token-changes.js';

const HOUR = 3_600_000;

/**
 * The replica that carried a revocation drops the token itself, without waiting for identity's
 * event (this cache listens to no NATS at all, as if the event were late).
 */
describe('droppingChangedTokens', () => {
  let identity: Awaited<ReturnType<typeof startFakeIdentity>>;
  let adapter: IdentityAdapter;
  let tokens: TokenCache;
  let changing: IdentityAdapter;
  const inTenant = <T>(call: () => Promise<T>) =>
    runWithContext({ requestId: 'r', tenantId: 't1' }, call);
  const cachedAfterLoad = async (id: number) => {
    await inTenant(() => tokens.get('t1', id));
    return tokens.cached('t1', id) !== undefined;
  };

  beforeAll(async () => {
    identity = await startFakeIdentity();
    adapter = createIdentityAdapter(identity.address, { deadlineMs: 60_000 });
    tokens = new TokenCache(adapter, HOUR, createLogger({ service: 't', level: 'silent' }));
    changing = droppingChangedTokens(adapter, tokens);
  });
  afterAll(() => {
    adapter?.close();
    identity?.stop();
  });

  it('drops a token revoked, revoked by an admin, edited or regenerated through this replica', async () => {
    const calls: Array<[number, () => Promise<unknown>]> = [
      [1, () => changing.revokeToken(1)],
      [2, () => changing.revokeTenantToken(2)],
      [3, () => changing.updateToken(UpdateTokenRequest.fromPartial({ id: 3 }))],
      [4, () => changing.regenerateToken(RegenerateTokenRequest.fromPartial({ id: 4 }))],
    ];
    for (const [id, call] of calls) {
      expect(await cachedAfterLoad(id)).toBe(true);
      await inTenant(call);
      expect(tokens.cached('t1', id), `token ${id}`).toBeUndefined();
    }
    // Another token stays cached.
    expect(await cachedAfterLoad(5)).toBe(true);
    await inTenant(() => changing.revokeToken(1));
    expect(tokens.cached('t1', 5)).toBeDefined();
  });

  it('drops every well-formed token of a leak report, valid or not, and ignores the rest', async () => {
    for (const id of [6, 7, 8]) expect(await cachedAfterLoad(id)).toBe(true);
    await inTenant(() =>
      changing.reportLeakedTokens([`6|${'a'.repeat(50)}`, `7|${'b'.repeat(40)}`, '8|short'], ''),
    );
    expect([6, 7, 8].map((id) => tokens.cached('t1', id) !== undefined)).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('drops the token even when the answer is lost', async () => {
    expect(await cachedAfterLoad(FAILING_TOKEN_ID)).toBe(true);
    await expect(inTenant(() => changing.revokeToken(FAILING_TOKEN_ID))).rejects.toBeDefined();
    expect(tokens.cached('t1', FAILING_TOKEN_ID)).toBeUndefined();
  });
});
