import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from '../../../src/fixtures/contract.js';
import { loginSession } from '../../../src/fixtures/tenants.js';
import { previousStepCode, totpCode } from '../../../src/fixtures/totp.js';
import { IDENTITY_CLAIMS as CLAIMS } from './claims.js';
import {
  accessOf,
  describeGateSweeps,
  expectAllSeen,
  gateSweeps,
  startContractSystem,
  unavailableSweep,
  type ContractSystem,
} from './harness.js';

const TOKENS = '/api/personal-access-tokens';

/**
 * Sign-in, the current user, two-factor and personal access tokens through the generated client:
 * every status the document lists for these operations, each answer checked against the document.
 */
// In order: the last test checks what the others saw.
describe('contract: sign-in, user, two-factor, personal access tokens', { shuffle: false }, () => {
  let c: ContractSystem;
  const ids = () => ({ id: String(c.tenant.tokenId) });

  beforeAll(async () => {
    c = await startContractSystem();
  });
  afterAll(() => c?.stop());

  const sweeps = gateSweeps(() => c, CLAIMS, ids);

  /** A user of its own with a fresh web session (two-factor and sign-out change the user). */
  async function ownSession() {
    const user = await c.tokenFor({});
    const session = await loginSession(user, c.r.system.gatewayUrl);
    return {
      user,
      api: contractClient(c.ledger, {
        gatewayUrl: c.r.system.gatewayUrl,
        host: user.host,
        session,
      }),
    };
  }

  it('sign-in: 200 with the CSRF token, 422 in the field form, sign-out 204', async () => {
    const { user, api } = await ownSession();
    const anonymous = c.api({ token: undefined });
    const signedIn = await anonymous.POST('/auth/login', {
      body: { email: user.user.email, password: user.password } as never,
    });
    expect(signedIn.data).toMatchObject({ csrf_token: expect.any(String) });
    const wrong = await anonymous.POST('/auth/login', {
      body: { email: user.user.email, password: 'not-the-password' } as never,
    });
    expect(wrong.error).toEqual({
      message: 'These credentials do not match our records.',
      errors: { email: ['These credentials do not match our records.'] },
    });
    expect((await api.POST('/auth/logout')).response.status).toBe(204);
  });

  it('sign-in: 429 with Retry-After once the account’s attempts are spent', async () => {
    const gateway = await c.gatewayWith({ LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '1' });
    const user = await c.tokenFor({});
    const api = contractClient(c.ledger, { gatewayUrl: gateway.url, host: user.host });
    const attempt = { body: { email: user.user.email, password: 'wrong-password' } as never };
    expect((await api.POST('/auth/login', attempt)).response.status).toBe(422);
    const throttled = await api.POST('/auth/login', attempt);
    expect(throttled.response.status).toBe(429);
    expect(Number(throttled.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('the current user: 200', async () => {
    const user = await c.api().GET('/api/user');
    expect(user.data).toMatchObject({ data: { email: c.tenant.fixture.user.email } });
  });

  it('the tenant of the address: 200', async () => {
    const tenant = await c.api().GET('/api/tenant');
    expect(tenant.data).toMatchObject({ data: { slug: c.tenant.fixture.tenant.slug } });
  });

  it('two-factor: enrol 200, confirm 200, turn off 204; 422 in both forms', async () => {
    const { user, api } = await ownSession();
    const notEnrolled = await api.POST('/api/user/two-factor/confirm', {
      body: { code: '123456' } as never,
    });
    expect(notEnrolled.error).toMatchObject({ code: 'two_factor_not_enrolled' });
    const notEnabled = await api.DELETE('/api/user/two-factor', {
      body: { password: user.password, code: '123456' } as never,
    });
    expect(notEnabled.error).toMatchObject({ code: 'two_factor_not_enabled' });

    const enrolled = await api.POST('/api/user/two-factor');
    const { secret } = (enrolled.data as { data: { secret: string } }).data;
    expect(secret).toEqual(expect.any(String));
    const missingCode = await api.POST('/api/user/two-factor/confirm', { body: {} as never });
    expect(missingCode.error).toMatchObject({ errors: { code: [expect.any(String)] } });
    // Codes of the previous and next window, so no code is presented twice.
    const confirmed = await api.POST('/api/user/two-factor/confirm', {
      body: { code: await previousStepCode(secret) } as never,
    });
    expect(confirmed.data).toMatchObject({ data: { recovery_codes: expect.any(Array) } });
    const again = await api.POST('/api/user/two-factor');
    expect(again.error).toMatchObject({ code: 'two_factor_already_enabled' });
    const noPassword = await api.DELETE('/api/user/two-factor', { body: { code: '1' } as never });
    expect(noPassword.error).toMatchObject({ errors: { password: [expect.any(String)] } });
    const off = await api.DELETE('/api/user/two-factor', {
      body: { password: user.password, code: totpCode(secret, Date.now() + 30_000) } as never,
    });
    expect(off.response.status).toBe(204);
  });

  it('tokens: 200, 201, 200, 204 and the request log and usage; 422 for bad input; 404 by id', async () => {
    const api = c.session();
    expect((await api.GET(TOKENS)).data).toMatchObject({ data: expect.any(Array) });
    const created = await api.POST(TOKENS, {
      body: { name: 'CI', scopes: ['products:read'] } as never,
    });
    expect(created.response.status).toBe(201);
    const id = String(created.data!.data.id);
    const path = { params: { path: { id } } };
    const renamed = await api.PATCH(`${TOKENS}/{id}`, { ...path, body: { name: 'CI 2' } as never });
    expect(renamed.response.status).toBe(200);
    expect((await api.GET(`${TOKENS}/{id}/requests`, path)).response.status).toBe(200);
    expect((await api.GET(`${TOKENS}/{id}/usage`, path)).response.status).toBe(200);

    expect((await api.POST(TOKENS, { body: {} as never })).error).toMatchObject({
      errors: { name: [expect.any(String)] },
    });
    const mistyped = await api.PATCH(`${TOKENS}/{id}`, { ...path, body: { name: 5 } as never });
    expect(mistyped.response.status).toBe(422);
    const badPage = { params: { query: { page: '0' } } } as never;
    expect((await api.GET(TOKENS, badPage)).response.status).toBe(422);
    const badStatus = {
      params: { path: { id: Number(id) }, query: { 'filter[status]': 'x' } },
    } as never;
    expect((await api.GET(`${TOKENS}/{id}/requests`, badStatus)).response.status).toBe(422);
    const badDays = { params: { path: { id: Number(id) }, query: { days: 'abc' } } } as never;
    expect((await api.GET(`${TOKENS}/{id}/usage`, badDays)).response.status).toBe(422);

    const regenerated = await api.POST(`${TOKENS}/{id}/regenerate`, { ...path, body: {} as never });
    expect(regenerated.data).toMatchObject({ data: { token: expect.any(String) } });
    const badExpiry = await api.POST(`${TOKENS}/{id}/regenerate`, {
      ...path,
      body: { expires_at: 'soon' } as never,
    });
    expect(badExpiry.response.status).toBe(422);

    expect((await api.DELETE(`${TOKENS}/{id}`, path)).response.status).toBe(204);
    const unknown = { params: { path: { id: '999999' } } };
    expect(
      (await api.PATCH(`${TOKENS}/{id}`, { ...unknown, body: { name: 'x' } as never })).response
        .status,
    ).toBe(404);
    expect((await api.DELETE(`${TOKENS}/{id}`, unknown)).response.status).toBe(404);
    expect(
      (await api.POST(`${TOKENS}/{id}/regenerate`, { ...unknown, body: {} as never })).response
        .status,
    ).toBe(404);
    const theirs = { params: { path: { id: String((await c.otherTenant()).tokenId) } } };
    expect((await api.DELETE(`${TOKENS}/{id}`, theirs)).response.status).toBe(404);
    expect((await api.GET(`${TOKENS}/{id}/requests`, unknown)).response.status).toBe(404);
    expect((await api.GET(`${TOKENS}/{id}/usage`, unknown)).response.status).toBe(404);
  });

  it('token policy: 200 read and replaced, 422 for a contradictory one', async () => {
    const api = c.session();
    const open = await api.GET('/api/token-policy');
    expect(open.data).toMatchObject({ data: { allow_no_expiry: true, max_lifetime_days: null } });
    const strict = await api.PUT('/api/token-policy', {
      body: {
        max_lifetime_days: 90,
        allow_no_expiry: false,
        member_scopes: null,
        require_ip_allowlist: false,
      } as never,
    });
    expect(strict.data).toMatchObject({
      data: { max_lifetime_days: 90, allow_no_expiry: false, tokens_breaking: expect.any(Number) },
    });
    const contradictory = await api.PUT('/api/token-policy', {
      body: { max_lifetime_days: 90, allow_no_expiry: true } as never,
    });
    expect(contradictory.error).toMatchObject({
      errors: { allow_no_expiry: [expect.any(String)] },
    });
    // Back to the open policy: the tokens the other checks make never expire.
    const reopened = await api.PUT('/api/token-policy', {
      body: {
        max_lifetime_days: null,
        allow_no_expiry: true,
        member_scopes: null,
        require_ip_allowlist: false,
      } as never,
    });
    expect(reopened.data).toMatchObject({
      data: { allow_no_expiry: true, max_lifetime_days: null },
    });
  });

  it("members' tokens for admins: 200 listed, 204 revoked, 422 for a bad filter, 404 by id", async () => {
    const api = c.session();
    const ORG = '/api/organization/personal-access-tokens';
    const member = await c.tokenFor({});
    const listed = await api.GET(ORG, {
      params: { query: { 'filter[user_id]': String(member.user.id) } },
    } as never);
    expect(listed.data).toMatchObject({ data: [{ id: member.tokenId, state: 'active' }] });
    const badFilter = await api.GET(ORG, {
      params: { query: { 'filter[user_id]': 'x' } },
    } as never);
    expect(badFilter.response.status).toBe(422);
    const path = { params: { path: { id: String(member.tokenId) } } };
    expect((await api.DELETE(`${ORG}/{id}`, path)).response.status).toBe(204);
    expect((await api.DELETE(`${ORG}/{id}`, path)).response.status).toBe(404);
  });

  it("the tenant's members for admins: 200 paged by id with name and email, 422 for a bad page size", async () => {
    const api = c.session();
    const member = await c.tokenFor({});
    const listed = await api.GET('/api/organization/members', {
      params: { query: { per_page: 100 } },
    } as never);
    expect(listed.response.status).toBe(200);
    const rows = (
      listed.data as unknown as { data: Array<{ id: number; name: string; email: string }> }
    ).data;
    expect(rows.map((row) => row.id)).toEqual([...rows.map((row) => row.id)].sort((a, b) => a - b));
    expect(rows.find((row) => row.id === member.user.id)).toEqual({
      id: member.user.id,
      name: expect.any(String),
      email: member.user.email,
    });
    const bad = await api.GET('/api/organization/members', {
      params: { query: { per_page: 'many' } },
    } as never);
    expect(bad.response.status).toBe(422);
  });

  it('leak reports: 202 whatever was reported, 422 for a bad body, 429 once the address’s minute is spent', async () => {
    const anonymous = c.api({ token: undefined });
    const victim = await c.tokenFor({});
    const reported = await anonymous.POST('/api/credentials/revoke', {
      body: { credentials: [victim.token], url: 'https://example.test/paste' } as never,
    });
    expect(reported.response.status).toBe(202);
    expect((await c.api({ token: victim.token }).GET('/api/user')).response.status).toBe(401);
    const empty = await anonymous.POST('/api/credentials/revoke', {
      body: { credentials: [] } as never,
    });
    expect(empty.error).toMatchObject({ errors: { credentials: [expect.any(String)] } });
    // From an address of its own (a trusted proxy's X-Forwarded-For), so the sweeps that follow
    // keep this address's budget.
    const proxied = await c.gatewayWith({ TRUSTED_PROXIES: '127.0.0.1' });
    const elsewhere = contractClient(c.ledger, {
      gatewayUrl: proxied.url,
      host: c.tenant.fixture.host,
      headers: { 'x-forwarded-for': '198.51.100.9' },
    });
    let status = 202;
    for (let attempt = 0; attempt < 11 && status !== 429; attempt++)
      status = (
        await elsewhere.POST('/api/credentials/revoke', { body: { credentials: ['1|x'] } as never })
      ).response.status;
    expect(status).toBe(429);
  });

  describeGateSweeps(sweeps);

  it('503 when identity is down', async () => {
    await unavailableSweep(c, CLAIMS, ids(), ['identity'], (operation) =>
      accessOf(operation) === 'session'
        ? { session: c.tenant.session }
        : accessOf(operation) === 'public'
          ? {}
          : { token: c.tenant.fixture.token },
    );
  });

  it('saw every (operation, status) pair it claims', () => expectAllSeen(c.ledger, CLAIMS));
});
