import type { FastifyInstance } from 'fastify';
import { flatEnvelope, pageMeta, rawQueryOf } from '../../http/pagination.js';
import { violationsOf } from '../../http/route-input.js';
import { declareRoutes, handle } from '../../http/routes.js';
import type { IdentityRouteDeps } from './deps.js';
import { presentRequest, presentToken } from './present.js';
import {
  CREATE_TOKEN_BODY,
  REGENERATE_TOKEN_BODY,
  TOKEN,
  TOKEN_REQUESTS_QUERY,
  TOKEN_USAGE_QUERY,
  UPDATE_TOKEN_BODY,
} from './token-inputs.js';
import { FLAT_PAGE } from '../../http/page-fields.js';
import { tokenSchemas } from './token-schemas.js';

const BASE = '/api/personal-access-tokens';

/** Web session only: tokens never manage tokens. */
export const TOKEN_ROUTES = declareRoutes({
  list: { method: 'GET', url: BASE, access: 'session', input: { query: FLAT_PAGE } },
  create: {
    method: 'POST',
    url: BASE,
    access: 'session',
    successStatus: 201,
    idempotent: true,
    // Type errors go with identity's rules, so one 422 names every field (the web form's one submit).
    input: { body: CREATE_TOKEN_BODY, deferErrors: true },
  },
  update: {
    method: 'PATCH',
    url: `${BASE}/:id`,
    access: 'session',
    input: { params: TOKEN, body: UPDATE_TOKEN_BODY, deferErrors: true },
  },
  revoke: {
    method: 'DELETE',
    url: `${BASE}/:id`,
    access: 'session',
    successStatus: 204,
    input: { params: TOKEN },
  },
  regenerate: {
    method: 'POST',
    url: `${BASE}/:id/regenerate`,
    access: 'session',
    idempotent: true,
    input: { params: TOKEN, body: REGENERATE_TOKEN_BODY, deferErrors: true },
  },
  requests: {
    method: 'GET',
    url: `${BASE}/:id/requests`,
    access: 'session',
    input: { params: TOKEN, query: TOKEN_REQUESTS_QUERY },
  },
  usage: {
    method: 'GET',
    url: `${BASE}/:id/usage`,
    access: 'session',
    input: { params: TOKEN, query: TOKEN_USAGE_QUERY },
  },
});

/** A list field as identity takes it: absent stays absent, `null` clears it. */
const listOf = (values: string[] | null | undefined) =>
  values === undefined ? undefined : { values: values ?? [] };

/** A day filter's instant: its first millisecond, or with `inclusiveEnd` its last (UTC). */
function dayBound(day: string | undefined, inclusiveEnd: boolean): Date | undefined {
  if (day === undefined) return undefined;
  return new Date(`${day}T${inclusiveEnd ? '23:59:59.999' : '00:00:00.000'}Z`);
}

/** Personal access tokens: web session only (the route table closes them to tokens). */
export async function tokenRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  handle(app, TOKEN_ROUTES.list, { schema: tokenSchemas.list }, async (request, _reply, input) => {
    const { page, per_page: perPage } = input.query;
    const answer = await deps.identity.listTokens(page, perPage);
    const data = answer.tokens.map(presentToken);
    return flatEnvelope(
      data,
      pageMeta(page, perPage, answer.total, data.length),
      `${request.tenant.base_url}${BASE}`,
      rawQueryOf(request),
    );
  });

  handle(app, TOKEN_ROUTES.create, { schema: tokenSchemas.create }, async (_req, reply, input) => {
    const { body } = input;
    const answer = await deps.identity.createToken({
      name: body.name ?? '',
      scopes: body.scopes ?? [],
      expires_at: body.expires_at,
      ip_allowlist: body.ip_allowlist ?? [],
      rate_limit_per_minute: body.rate_limit_per_minute ?? undefined,
      input_violations: violationsOf(input.errors),
    });
    return reply.send({ data: { ...presentToken(answer.token!), token: answer.plain_text_token } });
  });

  handle(app, TOKEN_ROUTES.update, { schema: tokenSchemas.update }, async (_req, _reply, input) => {
    const { body } = input;
    const token = await deps.identity.updateToken({
      id: input.params.id,
      name: body.name,
      scopes: listOf(body.scopes),
      ip_allowlist: listOf(body.ip_allowlist),
      // null clears the token's own limit (back to the platform's).
      rate_limit_per_minute: body.rate_limit_per_minute === null ? 0 : body.rate_limit_per_minute,
      password: body.password,
      two_factor_code: body.two_factor_code,
      input_violations: violationsOf(input.errors),
    });
    return { data: presentToken(token) };
  });

  handle(
    app,
    TOKEN_ROUTES.regenerate,
    { schema: tokenSchemas.regenerate },
    async (_q, _r, input) => {
      const { body } = input;
      const answer = await deps.identity.regenerateToken({
        id: input.params.id,
        expires_at: body.expires_at,
        name: body.name,
        scopes: listOf(body.scopes),
        ip_allowlist: listOf(body.ip_allowlist),
        rate_limit_per_minute: body.rate_limit_per_minute === null ? 0 : body.rate_limit_per_minute,
        password: body.password,
        two_factor_code: body.two_factor_code,
        input_violations: violationsOf(input.errors),
      });
      return { data: { ...presentToken(answer.token!), token: answer.plain_text_token } };
    },
  );

  handle(app, TOKEN_ROUTES.revoke, { schema: tokenSchemas.revoke }, async (_req, reply, input) => {
    await deps.identity.revokeToken(input.params.id);
    return reply.send();
  });

  handle(
    app,
    TOKEN_ROUTES.requests,
    { schema: tokenSchemas.requests },
    async (request, _r, input) => {
      const id = input.params.id;
      const { page, per_page: perPage, status, date_from, date_to } = input.query;
      const { statuses, classes } = status;
      const from = dayBound(date_from, false);
      const to = dayBound(date_to, true);
      const answer = await deps.identity.listTokenRequests({
        token_id: id,
        page,
        per_page: perPage,
        statuses,
        status_classes: classes,
        from,
        to,
      });
      const data = answer.requests.map(presentRequest);
      return flatEnvelope(
        data,
        pageMeta(page, perPage, answer.total, data.length),
        `${request.tenant.base_url}${BASE}/${id}/requests`,
        rawQueryOf(request),
      );
    },
  );

  handle(app, TOKEN_ROUTES.usage, { schema: tokenSchemas.usage }, async (_req, _reply, input) => {
    const usage = await deps.identity.getTokenUsage(input.params.id, input.query.days);
    return {
      data: {
        token_id: usage.token_id,
        days: usage.days,
        total_requests: usage.total_requests,
        error_rate: usage.error_rate,
        latency_ms: { p50: usage.p50_ms, p95: usage.p95_ms },
        last_used_at: usage.last_used_at?.toISOString() ?? null,
        requests_per_day: usage.per_day.map((day) => ({
          date: day.date,
          requests: day.requests,
          errors: day.errors,
        })),
      },
    };
  });
}
