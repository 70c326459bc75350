import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  previousStepCode,
  totpCode as totp,
  createUserWithToken,
  httpCall,
  loginSession,
  startSystem,
  type RunningSystem,
  type SessionFixture,
  type TenantFixture,
} from '../../src/index.js';
import { waitFor } from '@inventory/local-infra';

describe('web sessions, CSRF, 2FA and personal access token management', () => {
  let system: RunningSystem;
  let owner: TenantFixture;
  let session: SessionFixture;
  let other: TenantFixture;

  beforeAll(async () => {
    system = await startSystem();
    owner = await createTenantWithToken(system, { slug: 'pat-owner' });
    session = await loginSession(owner, system.gatewayUrl);
    other = await createTenantWithToken(system, { slug: 'pat-other' });
  });
  afterAll(() => system?.stop());

  it('login sets an HttpOnly SameSite=Lax Secure cookie and returns a CSRF token; GET /api/user works with it', async () => {
    const response = await httpCall(system.gatewayUrl, 'POST', '/auth/login', {
      host: owner.host,
      body: { email: owner.user.email, password: owner.password },
    });
    expect(response.status).toBe(200);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/inventory_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);
    expect(response.body.csrf_token).toMatch(/^[\w-]{40,}$/);
    const me = await session.request('GET', '/api/user');
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(owner.user.email);
  });

  it('a wrong password is 422 and repeated failures are throttled with 429 + Retry-After', async () => {
    const user = await createUserWithToken(system, owner.tenant);
    const attempt = () =>
      httpCall(system.gatewayUrl, 'POST', '/auth/login', {
        host: owner.host,
        body: { email: user.user.email, password: 'wrong-password' },
      });
    const startedAt = Date.now();
    const first = await attempt();
    expect(first.status).toBe(422);
    expect(first.body.errors.email).toEqual(['These credentials do not match our records.']);
    for (let i = 0; i < 4; i++) await attempt();
    const blocked = await attempt();
    const blockedAt = Date.now();
    expect(blocked.status).toBe(429);
    // The lock is the throttle's window (LOGIN_THROTTLE_WINDOW_SECONDS, 900) from the first
    // failure, less what has passed since: whole seconds, rounded up.
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(retryAfter).toBeGreaterThanOrEqual(
      Math.ceil((900_000 - (blockedAt - startedAt)) / 1000),
    );
    expect(blocked.body.retry_after_seconds).toBe(retryAfter);
    // Even the right password waits out the lock.
    const right = await httpCall(system.gatewayUrl, 'POST', '/auth/login', {
      host: owner.host,
      body: { email: user.user.email, password: user.password },
    });
    expect(right.status).toBe(429);
  });

  it('session writes need the CSRF header', async () => {
    const missing = await session.request(
      'POST',
      '/api/personal-access-tokens',
      { name: 'x' },
      { 'x-csrf-token': '' },
    );
    expect(missing.status).toBe(403);
    const wrong = await session.request(
      'POST',
      '/api/personal-access-tokens',
      { name: 'x' },
      { 'x-csrf-token': 'nope' },
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toBe('CSRF token mismatch.');
  });

  it('creates a token shown once, lists it without secrets, edits and revokes it', async () => {
    const created = await session.request('POST', '/api/personal-access-tokens', {
      name: 'CI',
      scopes: ['orders:read'],
      ip_allowlist: ['10.0.0.0/8', '2001:db8::/32'],
      rate_limit_per_minute: 60,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      tenant_id: other.tenant.id,
      user_id: other.user.id,
    });
    expect(created.status).toBe(201);
    const { token, id } = created.body.data;
    expect(token).toMatch(new RegExp(`^${id}\\|[A-Za-z0-9]{40,}$`));
    expect(created.body.data).toMatchObject({
      name: 'CI',
      scopes: ['orders:read'],
      ip_allowlist: ['10.0.0.0/8', '2001:db8::/32'],
      rate_limit_per_minute: 60,
    });

    const list = await session.request('GET', '/api/personal-access-tokens?per_page=1&sort=name');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ current_page: 1, per_page: 1, total: 2 });
    expect(list.body.next_page_url).toBe(
      `${owner.baseUrl}/api/personal-access-tokens?per_page=1&sort=name&page=2`,
    );
    expect(list.text).not.toContain(token.split('|')[1]);
    expect(list.text).not.toContain('secret_hash');

    const renamed = await session.request('PATCH', `/api/personal-access-tokens/${id}`, {
      name: 'CI 2',
      ip_allowlist: [],
      rate_limit_per_minute: null,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({
      name: 'CI 2',
      ip_allowlist: [],
      rate_limit_per_minute: null,
      scopes: ['orders:read'],
    });

    const revoked = await session.request('DELETE', `/api/personal-access-tokens/${id}`);
    expect(revoked.status).toBe(204);
    expect((await owner.withToken(token)('GET', '/api/user')).status).toBe(401);
    expect((await session.request('DELETE', `/api/personal-access-tokens/${id}`)).status).toBe(404);
  });

  it('validates with Laravel-style messages', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{}, 'name', 'The name field is required.'],
      [
        { name: 'x'.repeat(256) },
        'name',
        'The name field must not be greater than 255 characters.',
      ],
      [{ name: 12 }, 'name', 'The name field must be a string.'],
      [{ name: 'x', scopes: 'orders:read' }, 'scopes', 'The scopes field must be an array.'],
      [
        { name: 'x', rate_limit_per_minute: 1001 },
        'rate_limit_per_minute',
        'The rate limit per minute field must be between 1 and 1000.',
      ],
      [
        { name: 'x', rate_limit_per_minute: 0 },
        'rate_limit_per_minute',
        'The rate limit per minute field must be between 1 and 1000.',
      ],
      [
        { name: 'x', rate_limit_per_minute: '5' },
        'rate_limit_per_minute',
        'The rate limit per minute field must be an integer.',
      ],
      [
        { name: 'x', expires_at: '2001-01-01T00:00:00Z' },
        'expires_at',
        'The expires at field must be a date after now.',
      ],
      [
        { name: 'x', expires_at: 'soon' },
        'expires_at',
        'The expires at field must be a valid date.',
      ],
      [
        { name: 'x', ip_allowlist: ['10.0.0.0/33'] },
        'ip_allowlist.0',
        'The ip_allowlist.0 field must be a valid IPv4 or IPv6 CIDR range.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const response = await session.request('POST', '/api/personal-access-tokens', body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(response.body.errors[field]).toEqual([message]);
      expect(typeof response.body.message).toBe('string');
    }
    const badScope = await session.request('POST', '/api/personal-access-tokens', {
      name: 'x',
      scopes: ['orders:read', 'orders:admin'],
    });
    expect(badScope.status).toBe(422);
    expect(badScope.body.errors['scopes.1'][0]).toContain('orders:admin');
  });

  it('bad bodies are 4xx in the specification shapes, never 500', async () => {
    const malformed = await httpCall(system.gatewayUrl, 'POST', '/api/personal-access-tokens', {
      host: owner.host,
      rawBody: '{"name":',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('malformed_json');
    const wrongType = await httpCall(system.gatewayUrl, 'POST', '/api/personal-access-tokens', {
      host: owner.host,
      rawBody: 'name=x',
      headers: {
        cookie: session.cookie,
        'x-csrf-token': session.csrfToken,
        'content-type': 'application/x-www-form-urlencoded',
      },
    });
    expect(wrongType.status).toBe(415);
    const huge = await session.request('POST', '/api/personal-access-tokens', {
      name: 'x'.repeat(2_000_000),
    });
    expect(huge.status).toBe(413);
    const array = await session.request('POST', '/api/personal-access-tokens', [1, 2]);
    expect(array.status).toBe(422);
  });

  it("another user's or tenant's token ids are 404 on PATCH and DELETE", async () => {
    const colleague = await createUserWithToken(system, owner.tenant);
    for (const id of [colleague.tokenId, other.tokenId, 99_999_999]) {
      expect(
        (await session.request('PATCH', `/api/personal-access-tokens/${id}`, { name: 'mine now' }))
          .status,
      ).toBe(404);
      expect((await session.request('DELETE', `/api/personal-access-tokens/${id}`)).status).toBe(
        404,
      );
    }
    expect((await session.request('DELETE', '/api/personal-access-tokens/abc')).status).toBe(404);
    expect((await colleague.request('GET', '/api/user')).status).toBe(200);
    expect((await other.request('GET', '/api/user')).status).toBe(200);
  });

  it('adding a :write scope needs the password (422 when missing, 403 when wrong), and 2FA code when enabled', async () => {
    const user = await createUserWithToken(system, owner.tenant, { scopes: ['orders:read'] });
    const s = await loginSession(user, system.gatewayUrl);
    const path = `/api/personal-access-tokens/${user.tokenId}`;
    const missing = await s.request('PATCH', path, { scopes: ['orders:read', 'orders:write'] });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.password).toEqual(['The password field is required.']);
    const wrong = await s.request('PATCH', path, {
      scopes: ['orders:read', 'orders:write'],
      password: 'not-it',
    });
    expect(wrong.status).toBe(403);
    const readOnly = await s.request('PATCH', path, { scopes: ['orders:read', 'products:read'] });
    expect(readOnly.status).toBe(200);

    // Turn 2FA on: enroll, confirm with a code, get recovery codes once.
    const enroll = await s.request('POST', '/api/user/two-factor');
    expect(enroll.status).toBe(200);
    const secret = enroll.body.data.secret as string;
    expect(enroll.body.data.otpauth_url).toContain('otpauth://totp/');
    const confirm = await s.request('POST', '/api/user/two-factor/confirm', {
      code: await previousStepCode(secret),
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body.data.recovery_codes).toHaveLength(8);

    const noCode = await s.request('PATCH', path, {
      scopes: ['orders:write'],
      password: user.password,
    });
    expect(noCode.status).toBe(422);
    expect(noCode.body.errors.two_factor_code).toEqual(['The two factor code field is required.']);
    const badCode = await s.request('PATCH', path, {
      scopes: ['orders:write'],
      password: user.password,
      two_factor_code: '000000',
    });
    expect(badCode.status).toBe(403);
    const ok = await s.request('PATCH', path, {
      scopes: ['orders:write'],
      password: user.password,
      two_factor_code: totp(secret),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.scopes).toEqual(['orders:write']);

    // Login now needs the second factor; a recovery code works once.
    const login = (code?: string) =>
      httpCall(system.gatewayUrl, 'POST', '/auth/login', {
        host: user.host,
        body: {
          email: user.user.email,
          password: user.password,
          ...(code ? { two_factor_code: code } : {}),
        },
      });
    const without = await login();
    expect(without.status).toBe(422);
    expect(without.body.errors.two_factor_code).toEqual(['The two factor code field is required.']);
    const recovery = confirm.body.data.recovery_codes[0] as string;
    expect((await login(recovery)).status).toBe(200);
    expect((await login(recovery)).status).toBe(422);
  });

  it('the 51st active token is refused with a stable code, even under concurrency', async () => {
    const user = await createUserWithToken(system, owner.tenant);
    const s = await loginSession(user, system.gatewayUrl);
    // On a saturated machine the gateway may shed a request with a JSON 503 (its deadline ran
    // out, though identity may still have created the token): retry as a client would.
    let shed = 0;
    const create = (name: string) =>
      waitFor(
        async () => {
          const response = await s.request('POST', '/api/personal-access-tokens', { name });
          if (response.status === 503) shed++;
          return response.status === 503 ? undefined : { name, response };
        },
        { what: `an answer other than 503 for ${name}`, everyMs: 250, timeoutMs: 60_000 },
      );
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => create(`t${i}`)));
    const created = results.filter((r) => r.response.status === 201).map((r) => r.name);
    const refused = results.filter((r) => r.response.status === 422);
    expect(created.length + refused.length).toBe(60);
    expect(refused.map((r) => r.response.body.code)).toEqual(
      refused.map(() => 'token_limit_reached'),
    );
    const list = await s.request('GET', '/api/personal-access-tokens?per_page=100');
    // The fixture's own token is the first of the 50; exactly 49 tokens of the batch got in, among
    // them every one answered 201 (a shed request identity had applied shows up here too).
    expect(list.body.total).toBe(50);
    const listed = (list.body.data as { name: string }[]).map((t) => t.name);
    const batch = listed.filter((name) => /^t\d+$/.test(name));
    expect(batch).toHaveLength(49);
    expect(batch).toEqual(expect.arrayContaining(created));
    if (shed === 0) expect(created).toHaveLength(49);
    // Revoking one frees a slot.
    expect(
      (await s.request('DELETE', `/api/personal-access-tokens/${list.body.data[0].id}`)).status,
    ).toBe(204);
    expect((await s.request('POST', '/api/personal-access-tokens', { name: 'again' })).status).toBe(
      201,
    );
    expect(
      (await s.request('POST', '/api/personal-access-tokens', { name: 'one too many' })).body.code,
    ).toBe('token_limit_reached');
  });

  it("the session cookie is read among the browser's other cookies; logout clears it, other replies set none", async () => {
    const s = await loginSession(owner, system.gatewayUrl);
    const cookie = `theme=dark; ${s.cookie}; _ga=GA1.2.3`;
    const me = await httpCall(system.gatewayUrl, 'GET', '/api/user', {
      host: owner.host,
      headers: { cookie },
    });
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(owner.user.email);
    expect(me.headers['set-cookie']).toBeUndefined();
    const out = await httpCall(system.gatewayUrl, 'POST', '/auth/logout', {
      host: owner.host,
      headers: { cookie, 'x-csrf-token': s.csrfToken },
    });
    expect(out.status).toBe(204);
    const cleared = String(out.headers['set-cookie']);
    expect(cleared).toMatch(/^inventory_session=;/);
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970 00:00:00 GMT/);
  });

  it('logout ends the session', async () => {
    const s = await loginSession(owner, system.gatewayUrl);
    expect((await s.request('POST', '/auth/logout')).status).toBe(204);
    const after = await s.request('GET', '/api/user');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Unauthenticated.' });
  });
});
