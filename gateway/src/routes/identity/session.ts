import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '../../auth/session-auth.js';
import { HttpError } from '../../http/http-error.js';
import type { IdentityRouteDeps } from './deps.js';
import { presentUser } from './present.js';
import { field } from '../../http/body-fields.js';
import { documented } from '../../http/input-field.js';
import { body } from '../../http/route-input.js';
import { row } from '../../http/row-schema.js';
import { USER_ROW } from './user-schema.js';
import { declareRoutes, handle } from '../../http/routes.js';

const loginSchema = {
  tags: ['Authentication'],
  summary: 'Sign in to the web app (sets the session cookie, returns the CSRF token)',
  response: {
    200: row({ data: USER_ROW, csrf_token: 'string', expires_at: 'date-time?' }),
  },
};

const LOGIN_BODY = body({
  email: documented(field.string({ required: true, max: 255 }), { format: 'email' }),
  password: field.string({ required: true, max: 1024 }),
  two_factor_code: documented(field.string({ max: 64 }), {
    description: 'TOTP or recovery code, when 2FA is on',
  }),
});

export const SESSION_ROUTES = declareRoutes({
  login: { method: 'POST', url: '/auth/login', access: 'public', input: { body: LOGIN_BODY } },
  logout: { method: 'POST', url: '/auth/logout', access: 'session', successStatus: 204 },
});

/**
 * Web sessions: sign-in with failed-attempt throttling, sign-out. Registered as a plugin of its
 * own so the cookie plugin's hooks (a parse on every request, a Set-Cookie writer on every reply)
 * run on these two routes only: the auth hook reads the session cookie itself (ADR 0719).
 */
export async function sessionRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  await app.register(fastifyCookie);
  handle(app, SESSION_ROUTES.login, { schema: loginSchema }, async (request, reply, input) => {
    const { email, password, two_factor_code: code } = input.body;
    const tenantId = request.tenant.id;
    const wait = await deps.throttle.blockedFor(tenantId, email!, request.ip);
    if (wait > 0) {
      throw new HttpError(
        429,
        {
          message: `Too many login attempts. Please try again in ${wait} seconds.`,
          retry_after_seconds: wait,
        },
        { 'retry-after': String(wait) },
      );
    }
    let answer;
    try {
      answer = await deps.identity.login({
        email: email!,
        password: password!,
        two_factor_code: code,
      });
    } catch (error) {
      if (error instanceof HttpError && error.reason === 'invalid_credentials')
        await deps.throttle.recordFailure(tenantId, email!, request.ip);
      throw error;
    }
    await deps.throttle.recordSuccess(tenantId, email!, request.ip);
    void reply.setCookie(SESSION_COOKIE, answer.session_token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.sessionCookieSecure,
      path: '/',
      expires: answer.expires_at,
    });
    return {
      data: presentUser(answer.user!),
      csrf_token: answer.csrf_token,
      expires_at: answer.expires_at?.toISOString() ?? null,
    };
  });

  handle(
    app,
    SESSION_ROUTES.logout,
    { schema: { tags: ['Authentication'], summary: 'Sign out (needs X-CSRF-Token)' } },
    async (request, reply) => {
      const auth = request.auth;
      if (auth?.kind === 'session') await deps.identity.logout(auth.sessionToken);
      void reply.clearCookie(SESSION_COOKIE, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.sessionCookieSecure,
      });
      return reply.send();
    },
  );
}
