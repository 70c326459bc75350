import { SCOPES } from '@inventory/access';
import { flatEnvelopeSchema } from '../../http/page-schemas.js';
import { dataOf, row } from '../../http/row-schema.js';

/** What the token routes answer, and their tags and summaries (their input is in token-inputs.ts). */
export const TOKEN_FIELDS = {
  id: 'integer',
  name: 'string',
  scopes: { type: 'array', items: { type: 'string', enum: SCOPES } },
  ip_allowlist: { type: 'array', items: { type: 'string', description: 'IPv4 or IPv6 CIDR' } },
  rate_limit_per_minute: { type: ['integer', 'null'], minimum: 1, maximum: 1000 },
  expires_at: 'date-time?',
  last_used_at: 'date-time?',
  created_at: 'date-time',
  updated_at: 'date-time',
  policy_violations: {
    type: 'array',
    items: {
      type: 'string',
      enum: ['max_lifetime', 'no_expiry', 'member_scopes', 'ip_allowlist', 'unused'],
    },
    description: "The rules of the organisation's token policy the token breaks today (ADR 0120)",
  },
} as const;
export const TOKEN_ROW = row(TOKEN_FIELDS);
const tags = ['Personal access tokens'];

/** One entry of a token's request history (present.ts `presentRequest`). */
export const TOKEN_REQUEST_ROW = row({
  id: 'string',
  method: 'string',
  route: 'string',
  path: 'string',
  status: 'integer',
  duration_ms: 'integer',
  ip: 'string',
  user_agent: 'string',
  requested_at: 'date-time?',
});

export const tokenSchemas = {
  list: {
    tags,
    summary: 'List your active tokens (flat pagination envelope)',
    response: { 200: flatEnvelopeSchema(TOKEN_ROW) },
  },
  create: {
    tags,
    summary: 'Create a token; the plaintext `token` is shown only in this answer',
    response: {
      201: dataOf(
        row({ ...TOKEN_FIELDS, token: { type: 'string', description: '<id>|<secret>' } }),
      ),
    },
  },
  update: {
    tags,
    summary:
      'Edit name, scopes, allowlist or rate limit; adding a :write/:manage scope needs password (and two_factor_code)',
    response: { 200: dataOf(TOKEN_ROW) },
  },
  revoke: { tags, summary: 'Revoke a token (immediate)' },
  regenerate: {
    tags,
    summary:
      'A new secret for the same token and a new expiry; the old secret stops working at once. The plaintext `token` is shown only in this answer',
    description:
      'Name, scopes, allowlist and rate limit are kept unless given (as PATCH takes them; adding a :write/:manage scope needs password and two_factor_code). `expires_at` left out: the token never expires.',
    response: {
      200: dataOf(
        row({ ...TOKEN_FIELDS, token: { type: 'string', description: '<id>|<secret>' } }),
      ),
    },
  },
  requests: {
    tags,
    summary: "A token's request history (flat pagination envelope)",
    response: { 200: flatEnvelopeSchema(TOKEN_REQUEST_ROW) },
  },
  usage: {
    tags,
    summary: 'Requests per day, error rate, p50/p95 latency and last use',
    response: {
      200: dataOf(
        row({
          token_id: 'integer',
          days: 'integer',
          total_requests: 'integer',
          error_rate: { type: 'number' },
          latency_ms: row({ p50: { type: 'number' }, p95: { type: 'number' } }),
          last_used_at: 'date-time?',
          requests_per_day: {
            type: 'array',
            items: row({ date: 'string', requests: 'integer', errors: 'integer' }),
          },
        }),
      ),
    },
  },
};
