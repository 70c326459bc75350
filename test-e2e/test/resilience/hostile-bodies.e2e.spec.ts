import { describe, it } from 'vitest';
import { methodOf, send } from './harness.js';
import { ROUTES, isWrite, useHostileInput } from './hostile-suite.js';

/** Writes whose effect does not come from the body: probed only where they cannot act. */
const ACTION_ROUTES = new Set([
  'POST /auth/logout',
  'POST /api/user/two-factor',
  'POST /api/alerts/read-all',
  'POST /api/alerts/:id/read',
  // Any body, even `{}`, gives the token a new secret: the suite's own token would stop working.
  'POST /api/personal-access-tokens/:id/regenerate',
  'POST /api/webhook-subscriptions/:id/rotate-secret',
  'POST /api/webhook-subscriptions/:id/deliveries/:delivery_id/redeliver',
  'POST /api/webhook-subscriptions/:id/test',
  'POST /api/webhook-subscriptions/:id/pause',
  'POST /api/webhook-subscriptions/:id/resume',
  // Reprocessing reads no body (the bulk one's filters are the log's query; ADR 0230).
  'POST /api/integrations/parcel-tracking/instances/:instance/webhooks/:webhook/reprocess',
  'POST /api/integrations/parcel-tracking/instances/:instance/webhooks/reprocess',
]);
/** Stores any body as received (the provider's signature is checked later): 2xx is right. */
const ACCEPTS_ANY_BODY = new Set(['POST /webhooks/parcel-tracking/:token']);

const bodyRoutes = ROUTES.filter(
  (route) =>
    isWrite(route) &&
    !ACTION_ROUTES.has(route) &&
    !(methodOf(route) === 'DELETE' && route.includes(':')),
);

const nested = (depth: number, open: string, close: string, leaf = '1') =>
  open.repeat(depth) + leaf + close.repeat(depth);
const HUGE = 'x'.repeat(200_000);
const WRONG_TYPES = {
  name: 12345,
  email: ['a@b.test'],
  password: { value: 'x' },
  api_key: true,
  url: 42,
  events: 'product.created',
  scopes: 'orders:read',
  code: {},
  two_factor_code: [],
  expires_at: 'not-a-date',
  ip_allowlist: 'not-a-list',
  is_active: 'yes',
  active: 'yes',
  rate_limit_per_minute: 'fast',
};

interface BodyVariant {
  label: string;
  raw: string | Buffer;
  contentType?: string;
  /** The body may be a valid (no-op) write: 2xx is allowed, the snapshot must still not change. */
  mayBeValid?: true;
}
/** The same nasty value under every field name a route's body may have. */
const everyField = (value: string) =>
  `{${Object.keys(WRONG_TYPES)
    .map((key) => `"${key}":${value}`)
    .join(',')}}`;
const BODY_VARIANTS: BodyVariant[] = [
  { label: 'wrong types', raw: JSON.stringify(WRONG_TYPES) },
  {
    label: 'huge strings',
    raw: JSON.stringify(Object.fromEntries(Object.keys(WRONG_TYPES).map((key) => [key, HUGE]))),
  },
  { label: 'over the body limit', raw: JSON.stringify({ name: 'x'.repeat(1_200_000) }) },
  { label: '2,000 nested objects', raw: nested(2000, '{"a":', '}'), mayBeValid: true },
  { label: '2,000 nested arrays', raw: nested(2000, '[', ']') },
  { label: '2,000 nested objects in every field', raw: everyField(nested(2000, '{"a":', '}')) },
  { label: 'array', raw: '[1,2,3]' },
  { label: 'null', raw: 'null' },
  { label: 'string', raw: '"a string"' },
  { label: 'number', raw: '42' },
  { label: 'malformed JSON', raw: '{"name": "x",' },
  { label: 'empty JSON body', raw: '' },
  { label: 'text/plain', raw: JSON.stringify({ name: 'x' }), contentType: 'text/plain' },
  { label: 'form', raw: 'name=x&api_key=y', contentType: 'application/x-www-form-urlencoded' },
  {
    label: 'multipart',
    raw: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n',
    contentType: 'multipart/form-data; boundary=b',
  },
  {
    label: 'utf-16 charset',
    raw: Buffer.from(JSON.stringify({ name: 'x' }), 'utf16le'),
    contentType: 'application/json; charset=utf-16',
  },
  {
    label: 'invalid UTF-8',
    raw: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    mayBeValid: true,
  },
  {
    label: 'NUL in strings',
    raw: JSON.stringify(
      Object.fromEntries(Object.keys(WRONG_TYPES).map((key) => [key, `a\u0000b`])),
    ),
  },
  {
    label: 'prototype keys',
    raw: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}',
    mayBeValid: true,
  },
];

describe('hostile bodies on every write of the route table', () => {
  const suite = useHostileInput('bodies');

  it('refuses malformed, mistyped, huge, nested and mislabelled bodies without writing', () => {
    const { r, a, probes } = suite;
    return suite.withoutWriting(() =>
      probes.perRoute(bodyRoutes, (route) =>
        BODY_VARIANTS.map((variant) =>
          probes.probe(
            `${route} [${variant.label}]`,
            () =>
              send(r, a, route, {
                body: variant.raw,
                headers: { 'content-type': variant.contentType ?? 'application/json' },
              }),
            ACCEPTS_ANY_BODY.has(route) || variant.mayBeValid ? 'any' : 'refused',
          ),
        ),
      ),
    );
  });
});
