import { requiredScope, ruleFor, type RouteRule } from '../auth/route-access.js';
import { IDEMPOTENCY_HEADERS, RATE_LIMIT_HEADERS, ref, TOKEN_HEADERS } from './components.js';
import { SUMMARIES } from './summaries.js';

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses: Record<
    string,
    { description?: string; headers?: Json; content?: Record<string, { schema?: unknown }> }
  >;
}
interface Document extends Json {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> } & Json;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const WRITES = new Set(['put', 'post', 'delete', 'patch']);

/** A declared JSON body sent as another media type (http/body.ts). */
const UNSUPPORTED_MEDIA_TYPE = {
  description: 'The body is not labelled `application/json` (`code`: `unsupported_media_type`).',
  content: { 'application/json': { schema: ref('schemas', 'CodedError') } },
};

/** A body over the gateway's limit (`BODY_LIMIT_BYTES`), refused before it is read to the end. */
const PAYLOAD_TOO_LARGE = {
  description: 'The body is over the size limit (`code`: `payload_too_large`).',
  content: { 'application/json': { schema: ref('schemas', 'CodedError') } },
};

/** A write whose JSON body does not parse, refused before the route runs (http/error-handler.ts). */
const MALFORMED_JSON = {
  description: 'The body is labelled JSON but does not parse (`code`: `malformed_json`).',
  content: { 'application/json': { schema: ref('schemas', 'CodedError') } },
};

/** Whether a route can answer 422: its declared input (a body or a query) or a refused state. */
export function canBeRefused(operation: Operation, rule: RouteRule): boolean {
  const query = (operation.parameters as Array<{ in?: string }> | undefined)?.some(
    (parameter) => parameter.in === 'query',
  );
  return Boolean(operation.requestBody || query || rule.refusesState);
}

/** `/api/tokens/{id}` → `/api/tokens/:id`, the route table's spelling. */
const routePath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

const words = (path: string) =>
  path
    .split('/')
    .filter((segment) => segment && segment !== 'api')
    .flatMap((segment) => (segment.startsWith('{') ? ['by', segment.slice(1, -1)] : [segment]))
    .flatMap((segment) => segment.split(/[-_.]/))
    .filter(Boolean);

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `PATCH /api/personal-access-tokens/{id}` → `patchPersonalAccessTokensById`: stable and unique. */
function operationIdFor(method: string, path: string): string {
  return method + words(path).map(capital).join('');
}

/** The area a path belongs to, for routes that do not name their tags. */
function tagFor(path: string): string {
  if (path.startsWith('/webhooks/')) return 'Inbound webhooks';
  if (path === '/healthz' || path === '/readyz') return 'Health';
  const segments = path.split('/').filter((s) => s && s !== 'api' && s !== 'integrations');
  const area = segments[0] ?? 'API';
  return capital(area.replace(/-/g, ' '));
}

/** What the credential must carry, said in words beside `security`. */
function accessText(rule: RouteRule, scope: string | undefined): string {
  if (rule.access === 'public')
    return rule.perAddressPerMinute
      ? `No credential. At most ${rule.perAddressPerMinute} requests a minute from one address.`
      : 'No credential.';
  if (rule.access === 'session') return 'Web session only: tokens get 403.';
  const permission = rule.permission
    ? ` The user needs the permission \`${rule.permission}\`.`
    : '';
  if (scope) return `Token scope \`${scope}\` (sessions: the same user permission).${permission}`;
  return `Any valid token, or a web session.${permission}`;
}

/** The readiness probe's refusal: its own body, not an error envelope (routes/health.ts). */
const NOT_READY = {
  type: 'object',
  description:
    'A part every request needs (identity, Redis, NATS) is down, or the gateway is stopping.',
  required: ['status', 'checks'],
  properties: {
    status: { const: 'not_ready' },
    checks: { type: 'object', additionalProperties: { type: 'boolean' } },
  },
};

/**
 * Sign-in's throttle (per account and address) is not the credential rate limit: its 429 carries
 * `Retry-After` but none of the `X-RateLimit-*` headers (routes/identity/session.ts).
 */
const LOGIN_THROTTLED = {
  description:
    'Too many sign-in attempts for this account or address: retry after `Retry-After` seconds.',
  headers: { 'Retry-After': ref('headers', 'Retry-After') },
  content: { 'application/json': { schema: ref('schemas', 'TooManyRequests') } },
};

const INVALID_SIGNATURE = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' } },
  additionalProperties: false,
};

/** Answers one route gives beside those its kind implies (`METHOD /route/pattern`). */
const PARTICULAR_ANSWERS: Record<string, Operation['responses']> = {
  // A provider push whose `sign` header does not match the instance's key (webhook-ingest).
  'POST /webhooks/parcel-tracking/:token': {
    '401': {
      description: 'The `sign` header is missing or does not match the body and the instance key.',
      content: { 'application/json': { schema: ref('schemas', 'InvalidSignature') } },
    },
  },
  'GET /readyz': {
    '503': {
      description: 'Not ready: take this replica out of the load balancer.',
      content: { 'application/json': { schema: ref('schemas', 'NotReady') } },
    },
  },
};

/** Moves an inline schema into components under `name`, leaving a `$ref`. */
function hoist(document: Document, holder: { schema?: unknown } | undefined, name: string): void {
  if (!holder?.schema || (holder.schema as Json).$ref) return;
  document.components.schemas[name] = holder.schema;
  holder.schema = ref('schemas', name);
}

/**
 * Completes every operation from the route table, so a route added later is described without
 * anyone remembering to: operationId, tags, summary, the scope (`x-required-scope`), each error
 * the gateway can answer for that kind of route, the rate-limit headers, and request and response
 * schemas moved into `components`.
 */
export function describeOperations(document: Document, table: Record<string, RouteRule>): Document {
  document.components.schemas.NotReady = NOT_READY;
  document.components.schemas.InvalidSignature = INVALID_SIGNATURE;
  (document.components as Json).responses = {
    ...((document.components as Json).responses as Json),
    LoginThrottled: LOGIN_THROTTLED,
    MalformedJson: MALFORMED_JSON,
    UnsupportedMediaType: UNSUPPORTED_MEDIA_TYPE,
    PayloadTooLarge: PAYLOAD_TOO_LARGE,
  };
  // A 403 carries `required_scope` only when a scope is missing; without saying so, a MissingScope
  // body is also a Forbidden one and the `oneOf` of the 403 refuses every missing-scope answer.
  const forbidden = document.components.schemas.Forbidden as Json | undefined;
  if (forbidden)
    document.components.schemas.Forbidden = { ...forbidden, not: { required: ['required_scope'] } };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${routePath(path)}`;
      const rule = ruleFor(method.toUpperCase(), routePath(path), table) ?? { access: 'session' };
      const scope = requiredScope(rule.access, method);
      const id = operation.operationId ?? operationIdFor(method, path);
      operation.operationId = id;
      operation.tags ??= [tagFor(path)];
      operation.summary ??= SUMMARIES[key];
      operation.description = [operation.description, accessText(rule, scope)]
        .filter(Boolean)
        .join('\n\n');
      if (scope) operation['x-required-scope'] = scope;

      const responses = operation.responses;
      // Routes without a response schema are given Fastify's default 200: answer with the status
      // the route declares instead (the same declaration sets it on the reply).
      const success = rule.successStatus;
      if (success && !responses[success]) {
        const ok = responses['200'];
        delete responses['200'];
        responses[success] =
          success === 204 ? { description: 'No content' } : (ok ?? { description: 'Success' });
      }
      for (const [status, response] of Object.entries(responses)) {
        if (response.description === 'Default Response') response.description = 'Success';
        if (!status.startsWith('2')) continue;
        // A route that declares no answer still answers JSON: say that much, so clients get a type.
        if (!response.content && status !== '204')
          response.content = {
            'application/json': { schema: { type: 'object', additionalProperties: true } },
          };
        hoist(document, response.content?.['application/json'], `${capital(id)}Response`);
        if (rule.access !== 'public' || rule.perAddressPerMinute)
          response.headers = {
            ...RATE_LIMIT_HEADERS,
            ...(rule.access === 'session' || rule.access === 'public' ? {} : TOKEN_HEADERS),
            ...(rule.idempotent ? IDEMPOTENCY_HEADERS : {}),
            ...response.headers,
          };
      }
      hoist(
        document,
        operation.requestBody?.content?.['application/json'],
        `${capital(id)}Request`,
      );

      for (const [status, response] of Object.entries(PARTICULAR_ANSWERS[key] ?? {}))
        responses[status] ??= response;

      const errors: Record<string, string> = {};
      if (rule.access !== 'public') {
        errors['401'] = 'Unauthenticated';
        errors['403'] = 'Forbidden';
      }
      if (!rule.tenantless) {
        errors['404'] = 'NotFound';
        // 422 only where something can be refused: a declared body or query, or a refused state
        // (a bad path parameter is the record's 404).
        if (canBeRefused(operation, rule) || rule.idempotent) errors['422'] = 'Unprocessable';
        errors['503'] = 'ServiceUnavailable';
      }
      // A second request with an Idempotency-Key while the first runs (ADR 0119).
      if (rule.idempotent) errors['409'] = 'IdempotencyKeyInUse';
      // Tokens and sessions are rate limited; sign-in is throttled per account and address.
      if (rule.access !== 'public' || rule.perAddressPerMinute) errors['429'] = 'TooManyRequests';
      if (key === 'POST /auth/login') errors['429'] = 'LoginThrottled';
      // Inbound webhooks read their body raw (the signature covers the bytes): they answer 422.
      if (WRITES.has(method) && !path.startsWith('/webhooks/')) errors['400'] = 'MalformedJson';
      if (WRITES.has(method)) errors['413'] = 'PayloadTooLarge';
      if (operation.requestBody?.content?.['application/json'])
        errors['415'] = 'UnsupportedMediaType';
      for (const [status, name] of Object.entries(errors))
        responses[status] ??= ref('responses', name) as never;
    }
  }
  return document;
}
