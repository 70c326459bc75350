/**
 * The parts of the OpenAPI document every operation shares: the specification's error envelopes
 * (as `http/envelopes.ts` builds them), the responses that carry them, the rate-limit headers and
 * the two credentials. Operations point at these by `$ref` (describe-operations.ts).
 */
import { TOKEN_EXPIRATION_HEADER } from '@inventory/access';

const string = { type: 'string' } as const;
const fieldMessages = { type: 'array', items: string } as const;

/** `{ message, code, data }` entries under `errors.<key>`, as 401 and 404 carry them. */
const codedErrors = (key: string, code: string) => ({
  type: 'object',
  required: [key],
  properties: {
    [key]: {
      type: 'array',
      items: {
        type: 'object',
        required: ['message', 'code', 'data'],
        properties: {
          message: string,
          code: { const: code },
          data: { type: 'array', maxItems: 0 },
        },
      },
    },
  },
});

export const ERROR_SCHEMAS = {
  Unauthenticated: {
    type: 'object',
    description: 'No credential, or a malformed one.',
    required: ['message'],
    properties: { message: { const: 'Unauthenticated.' } },
  },
  InvalidToken: {
    type: 'object',
    description: "A well-formed token that is unknown, expired, revoked or another tenant's.",
    required: ['errors', 'status', 'message'],
    properties: {
      errors: codedErrors('token', 'Unauthorized'),
      status: { const: 'failure' },
      message: string,
    },
  },
  Forbidden: {
    type: 'object',
    description:
      'Refused: a session-only route called with a token, an IP outside the allowlist, a missing user permission, a CSRF mismatch.',
    required: ['message'],
    properties: { message: string },
  },
  MissingScope: {
    type: 'object',
    description: 'The token lacks the scope the operation needs (`x-required-scope`).',
    required: ['message', 'required_scope'],
    properties: { message: string, required_scope: string },
  },
  NotFound: {
    type: 'object',
    description: 'Unknown host, route or record.',
    required: ['errors', 'status', 'message'],
    properties: {
      errors: codedErrors('url', 'NotFound'),
      status: { const: 'failure' },
      message: string,
    },
  },
  ValidationFailed: {
    type: 'object',
    description: "Field form: every field at fault with Laravel's messages.",
    required: ['message', 'errors'],
    properties: {
      message: string,
      errors: { type: 'object', additionalProperties: fieldMessages },
    },
  },
  CodedError: {
    type: 'object',
    description: 'Code form: a stable machine-readable `code` and a message.',
    required: ['message', 'code'],
    properties: { message: string, code: string },
  },
  TooManyRequests: {
    type: 'object',
    required: ['message', 'retry_after_seconds'],
    properties: { message: string, retry_after_seconds: { type: 'integer', minimum: 0 } },
  },
} as const;

const integerHeader = (description: string) => ({
  description,
  required: true,
  schema: { type: 'integer' },
});

export const HEADERS = {
  'X-RateLimit-Limit': integerHeader('Requests allowed per minute for this credential.'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'X-RateLimit-Reset': integerHeader('Unix time (seconds) when the window is full again.'),
  'Retry-After': integerHeader('Seconds to wait before trying again.'),
  'RateLimit-Policy': {
    description:
      'The budget, as draft-ietf-httpapi-ratelimit-headers writes it (a Structured Field List): ' +
      'the policy the budget is kept per (`"token"`, `"session"` or `"address"`), its quota `q` ' +
      'and window `w` in seconds, e.g. `"token";q=1000;w=60`.',
    required: true,
    schema: { type: 'string', pattern: '^"[a-z]+";q=[0-9]+;w=[0-9]+$' },
  },
  RateLimit: {
    description:
      'What is left of that budget (draft-ietf-httpapi-ratelimit-headers): `r` requests ' +
      'remaining now, `t` seconds until the whole quota is back, e.g. `"token";r=998;t=1`.',
    required: true,
    schema: { type: 'string', pattern: '^"[a-z]+";r=[0-9]+;t=[0-9]+$' },
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this answer is the first answer to an earlier request with the same ' +
      '`Idempotency-Key`, sent again; nothing was done a second time. Absent otherwise.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  [TOKEN_EXPIRATION_HEADER]: {
    description:
      'When the bearer token that authenticated the request expires (ISO 8601, UTC). ' +
      'Sent on every answer to a token, errors included; absent for a token without expiry ' +
      'and for web sessions.',
    required: false,
    schema: { type: 'string', format: 'date-time' },
  },
} as const;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });

export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': ref('headers', 'X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('headers', 'X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('headers', 'X-RateLimit-Reset'),
  'RateLimit-Policy': ref('headers', 'RateLimit-Policy'),
  RateLimit: ref('headers', 'RateLimit'),
};

/** On the answers of the routes that take an `Idempotency-Key` (http/idempotency.ts). */
export const IDEMPOTENCY_HEADERS = {
  'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed'),
};

/** On the answers of the routes a token may call. */
export const TOKEN_HEADERS = {
  [TOKEN_EXPIRATION_HEADER]: ref('headers', TOKEN_EXPIRATION_HEADER),
};

export const RESPONSES = {
  Unauthenticated: {
    description: 'No or malformed credential (`Unauthenticated.`), or an invalid token.',
    content: json({
      oneOf: [ref('schemas', 'Unauthenticated'), ref('schemas', 'InvalidToken')],
    }),
  },
  Forbidden: {
    description: 'Not allowed for this credential (see the operation for what it needs).',
    content: json({ oneOf: [ref('schemas', 'MissingScope'), ref('schemas', 'Forbidden')] }),
  },
  NotFound: {
    description: 'No tenant answers on this host, or the record does not exist in this tenant.',
    content: json(ref('schemas', 'NotFound')),
  },
  Unprocessable: {
    description: 'The request was refused: field errors, or a business rule with a `code`.',
    content: json({ oneOf: [ref('schemas', 'ValidationFailed'), ref('schemas', 'CodedError')] }),
  },
  IdempotencyKeyInUse: {
    description:
      'A request with the same `Idempotency-Key` is still being processed (`code`: ' +
      '`idempotency_key_in_use`); retry once it has completed.',
    headers: { 'Retry-After': ref('headers', 'Retry-After') },
    content: json(ref('schemas', 'CodedError')),
  },
  TooManyRequests: {
    description: 'Rate limited: retry after `Retry-After` seconds.',
    headers: { 'Retry-After': ref('headers', 'Retry-After'), ...RATE_LIMIT_HEADERS },
    content: json(ref('schemas', 'TooManyRequests')),
  },
  ServiceUnavailable: {
    description:
      'A service behind the gateway is unavailable (`code` says which way); retry later.',
    headers: { 'Retry-After': ref('headers', 'Retry-After') },
    content: json(ref('schemas', 'CodedError')),
  },
} as const;

export const SECURITY_SCHEMES = {
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Personal access token `<id>|<secret>`. An operation with `x-required-scope` needs that scope on the token.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'inventory_session',
    description: 'Web-app session (`POST /auth/login`); writes also need `X-CSRF-Token`.',
  },
} as const;

export { ref };
