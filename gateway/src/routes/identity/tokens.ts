import type { FastifyInstance, FastifyRequest } from 'fastify';
import { flatEnvelope, pageMeta, parsePageRequest } from '../../http/pagination.js';
import { BodyReader } from '../../http/body.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { endOfDay, parseDay, startOfDay } from '../../http/dates.js';
import { notFoundBody, validationBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';
import { pathId } from '../../http/params.js';
import type { IdentityRouteDeps } from './deps.js';
import { presentRequest, presentToken } from './present.js';
import { tokenSchemas } from './token-schemas.js';

const BASE = '/api/personal-access-tokens';

/** Web session only: tokens never manage tokens. */
export const TOKEN_ROUTES = declareRoutes({
  list: { method: 'GET', url: BASE, access: 'session' },
  create: { method: 'POST', url: BASE, access: 'session', successStatus: 201 },
  update: { method: 'PATCH', url: `${BASE}/:id`, access: 'session' },
  revoke: { method: 'DELETE', url: `${BASE}/:id`, access: 'session', successStatus: 204 },
  requests: { method: 'GET', url: `${BASE}/:id/requests`, access: 'session' },
  usage: { method: 'GET', url: `${BASE}/:id/usage`, access: 'session' },
});

function tokenIdParam(request: FastifyRequest): number {
  const id = pathId((request.params as { id: string }).id);
  if (id === undefined) throw new HttpError(404, notFoundBody('Personal access token not found.'));
  return id;
}

const rawQuery = (request: FastifyRequest) => request.url.split('?')[1] ?? '';

/** `m/d/Y` (as elsewhere in the API) or `YYYY-MM-DD`; `inclusiveEnd` makes `date_to` cover its day. */
function filterDay(field: string, value: unknown, inclusiveEnd: boolean): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const day = parseDay(String(value), { iso: true });
  if (!day)
    throw new HttpError(
      422,
      validationBody({ [field]: [`The ${field} field must match the format m/d/Y.`] }),
    );
  return inclusiveEnd ? endOfDay(day) : startOfDay(day);
}

/** `filter[status]=200,404,5xx`: exact codes and classes. */
function parseStatuses(value: unknown): { statuses: number[]; classes: number[] } {
  const statuses: number[] = [];
  const classes: number[] = [];
  if (value === undefined || value === '') return { statuses, classes };
  for (const part of String(value)
    .split(',')
    .map((item) => item.trim().toLowerCase())) {
    if (/^[1-5]\d\d$/.test(part)) statuses.push(Number(part));
    else if (/^[1-5]xx$/.test(part)) classes.push(Number(part[0]));
    else
      throw new HttpError(
        422,
        validationBody({
          'filter.status': [
            `The selected filter.status is invalid: ${JSON.stringify(part.slice(0, 20))}.`,
          ],
        }),
      );
  }
  return { statuses, classes };
}

/** Personal access tokens: web session only (the route table closes them to tokens). */
export async function tokenRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  handle(app, TOKEN_ROUTES.list, { schema: tokenSchemas.list }, async (request) => {
    const { page, perPage } = parsePageRequest(request.query as Record<string, unknown>);
    const answer = await deps.identity.listTokens(page, perPage);
    const data = answer.tokens.map(presentToken);
    return flatEnvelope(
      data,
      pageMeta(page, perPage, answer.total, data.length),
      `${request.tenant.base_url}${BASE}`,
      rawQuery(request),
    );
  });

  handle(app, TOKEN_ROUTES.create, { schema: tokenSchemas.create }, async (request, reply) => {
    const body = BodyReader.of(request);
    const name = body.string('name', { required: true, max: 255 });
    const scopes = body.stringArray('scopes', { maxItems: 100 });
    const expiresAt = body.date('expires_at');
    const allowlist = body.stringArray('ip_allowlist', { maxItems: 100 });
    const rateLimit = body.integer('rate_limit_per_minute');
    body.done();
    const answer = await deps.identity.createToken({
      name: name!,
      scopes: scopes ?? [],
      expires_at: expiresAt,
      ip_allowlist: allowlist ?? [],
      rate_limit_per_minute: rateLimit,
    });
    return reply.send({ data: { ...presentToken(answer.token!), token: answer.plain_text_token } });
  });

  handle(app, TOKEN_ROUTES.update, { schema: tokenSchemas.update }, async (request) => {
    const id = tokenIdParam(request);
    const body = BodyReader.of(request);
    const name = body.has('name')
      ? (body.string('name', { required: true, max: 255 }) ?? '')
      : undefined;
    const scopes = body.has('scopes')
      ? (body.stringArray('scopes', { maxItems: 100 }) ?? [])
      : undefined;
    const allowlist = body.has('ip_allowlist')
      ? (body.stringArray('ip_allowlist', { maxItems: 100 }) ?? [])
      : undefined;
    // null clears the token's own limit (back to the platform's).
    const rateLimit = body.has('rate_limit_per_minute')
      ? (body.integer('rate_limit_per_minute') ?? 0)
      : undefined;
    const password = body.string('password', { max: 1024 });
    const code = body.string('two_factor_code', { max: 64 });
    body.done();
    const token = await deps.identity.updateToken({
      id,
      name,
      scopes: scopes ? { values: scopes } : undefined,
      ip_allowlist: allowlist ? { values: allowlist } : undefined,
      rate_limit_per_minute: rateLimit,
      password,
      two_factor_code: code,
    });
    return { data: presentToken(token) };
  });

  handle(app, TOKEN_ROUTES.revoke, { schema: tokenSchemas.revoke }, async (request, reply) => {
    await deps.identity.revokeToken(tokenIdParam(request));
    return reply.send();
  });

  handle(app, TOKEN_ROUTES.requests, { schema: tokenSchemas.requests }, async (request) => {
    const id = tokenIdParam(request);
    const query = request.query as Record<string, unknown>;
    const { page, perPage } = parsePageRequest(query);
    const { statuses, classes } = parseStatuses(query['filter[status]']);
    const from = filterDay('filter.date_from', query['filter[date_from]'], false);
    const to = filterDay('filter.date_to', query['filter[date_to]'], true);
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
      rawQuery(request),
    );
  });

  handle(app, TOKEN_ROUTES.usage, { schema: tokenSchemas.usage }, async (request) => {
    const id = tokenIdParam(request);
    const rawDays = (request.query as Record<string, unknown>).days;
    const days = rawDays === undefined ? 30 : Number(rawDays);
    if (!Number.isInteger(days) || days < 1 || days > 90)
      throw new HttpError(
        422,
        validationBody({ days: ['The days field must be between 1 and 90.'] }),
      );
    const usage = await deps.identity.getTokenUsage(id, days);
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
