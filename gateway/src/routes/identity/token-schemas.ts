import { SCOPES } from '@inventory/access';

/** Documentation-only schemas (the identity routes validate with Laravel-style messages themselves). */
const token = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    scopes: { type: 'array', items: { type: 'string', enum: SCOPES } },
    ip_allowlist: { type: 'array', items: { type: 'string', description: 'IPv4 or IPv6 CIDR' } },
    rate_limit_per_minute: { type: ['integer', 'null'], minimum: 1, maximum: 1000 },
    expires_at: { type: ['string', 'null'], format: 'date-time' },
    last_used_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};
const idParam = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] };
const tags = ['Personal access tokens'];

export const tokenSchemas = {
  list: {
    tags,
    summary: 'List your active tokens (flat pagination envelope)',
    querystring: {
      type: 'object',
      properties: { page: { type: 'integer' }, per_page: { type: 'integer' } },
    },
  },
  create: {
    tags,
    summary: 'Create a token; the plaintext `token` is shown only in this answer',
    body: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', maxLength: 255 },
        scopes: token.properties.scopes,
        expires_at: { type: 'string', format: 'date-time' },
        ip_allowlist: token.properties.ip_allowlist,
        rate_limit_per_minute: { type: 'integer', minimum: 1, maximum: 1000 },
      },
    },
    response: {
      201: {
        type: 'object',
        properties: {
          data: {
            ...token,
            properties: {
              ...token.properties,
              token: { type: 'string', description: '<id>|<secret>' },
            },
          },
        },
      },
    },
  },
  update: {
    tags,
    summary:
      'Edit name, scopes, allowlist or rate limit; adding a :write/:manage scope needs password (and two_factor_code)',
    params: idParam,
    body: {
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 255 },
        scopes: token.properties.scopes,
        ip_allowlist: token.properties.ip_allowlist,
        rate_limit_per_minute: { type: ['integer', 'null'] },
        password: { type: 'string' },
        two_factor_code: { type: 'string' },
      },
    },
    response: { 200: { type: 'object', properties: { data: token } } },
  },
  revoke: { tags, summary: 'Revoke a token (immediate)', params: idParam },
  requests: {
    tags,
    summary: "A token's request history (flat pagination envelope)",
    params: idParam,
    querystring: {
      type: 'object',
      properties: {
        'filter[status]': {
          type: 'string',
          description: 'comma-separated codes or classes, e.g. 200,404,5xx',
        },
        'filter[date_from]': { type: 'string', description: 'm/d/Y or YYYY-MM-DD' },
        'filter[date_to]': { type: 'string', description: 'm/d/Y or YYYY-MM-DD (inclusive)' },
        page: { type: 'integer' },
        per_page: { type: 'integer' },
      },
    },
  },
  usage: {
    tags,
    summary: 'Requests per day, error rate, p50/p95 latency and last use',
    params: idParam,
    querystring: {
      type: 'object',
      properties: { days: { type: 'integer', minimum: 1, maximum: 90 } },
    },
  },
};
