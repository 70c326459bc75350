import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentContext } from '@inventory/platform';
import { timingSafeEqual } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { IdentityAdapter } from '../adapters/identity.js';
import { forbiddenBody, unauthenticatedBody } from '../http/envelopes.js';
import { HttpError } from '../http/http-error.js';
import { sha256Hex } from './bearer.js';
import type { RateGate } from './rate-gate.js';
import { assertSessionAccess, type RouteRule } from './route-access.js';
import type { AuthenticatedUser } from './types.js';

export const SESSION_COOKIE = 'inventory_session';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface SessionAuthDeps {
  identity: IdentityAdapter;
  limit: RateGate;
  /** Requests per minute per signed-in user. */
  platformRateLimit: number;
}

/** The web session's identity checks, its CSRF token on writes, its user's rate limit, then access. */
export type SessionAuthentication = (
  request: FastifyRequest,
  reply: FastifyReply,
  rule: RouteRule,
  sessionToken: string,
) => Promise<void>;

/**
 * The web session's token from the Cookie header. Parsed here, for the one request in which a
 * session is looked for, rather than by a cookie plugin's hook on every request (ADR 0719).
 */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? parseCookie(header)[SESSION_COOKIE] : undefined;
}

/** `X-CSRF-Token` whose SHA-256 is the session's, compared in constant time. */
function assertCsrf(request: FastifyRequest, csrfHash: string): void {
  const presented = request.headers['x-csrf-token'];
  const expected = Buffer.from(csrfHash, 'hex');
  const actual =
    typeof presented === 'string' && presented.length <= 200
      ? Buffer.from(sha256Hex(presented), 'hex')
      : Buffer.alloc(0);
  const ok =
    actual.length === expected.length && expected.length > 0 && timingSafeEqual(actual, expected);
  if (!ok) throw new HttpError(403, forbiddenBody('CSRF token mismatch.'));
}

export function sessionAuthentication(deps: SessionAuthDeps): SessionAuthentication {
  return async (request, reply, rule, sessionToken) => {
    let session;
    try {
      session = await deps.identity.getSession(sessionToken);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 401)
        throw new HttpError(401, unauthenticatedBody());
      throw error;
    }
    const user: AuthenticatedUser = {
      id: session.user!.id,
      isOwner: session.user!.is_owner,
      permissions: session.user!.permissions,
    };
    request.auth = { kind: 'session', sessionToken, user };
    const context = currentContext();
    if (context) context.userId = String(user.id);
    if (WRITE_METHODS.has(request.method)) assertCsrf(request, session.csrf_hash);
    await deps.limit(
      reply,
      'session',
      `rl:user:${request.tenant.id}:${user.id}`,
      deps.platformRateLimit,
    );
    assertSessionAccess(rule, request.method, user);
  };
}
