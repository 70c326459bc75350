import { SCOPES, TOKEN_POLICY_PERMISSION } from '@inventory/access';
import type { TokenPolicy } from '@inventory/contracts/identity/v1/identity.js';
import type { FastifyInstance } from 'fastify';
import { field } from '../../http/body-fields.js';
import { documented, required } from '../../http/input-field.js';
import { body, violationsOf } from '../../http/route-input.js';
import { dataOf, row } from '../../http/row-schema.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { isoOrNull } from '../../http/timestamps.js';
import type { IdentityRouteDeps } from './deps.js';

/**
 * The body is the whole policy (PUT): its four rules are required (`null` where a rule allows
 * it), so a body that names none of them never resets a tenant's policy to open; the unused-token
 * settings may be left out (none).
 */
const POLICY_BODY = body({
  max_lifetime_days: required(
    documented(field.integer({ int32: true }), {
      description:
        'Days a token may live from when it is made or regenerated, 1 to 3650; null: no bound',
    }),
  ),
  allow_no_expiry: required(
    documented(field.boolean(), {
      description: 'Whether a token may never expire (false while max_lifetime_days is set)',
    }),
  ),
  member_scopes: required(
    documented(field.stringArray({ maxItems: 100, itemMax: 255 }), {
      items: { type: 'string', enum: SCOPES },
      description: 'The scopes a member (not an owner) may grant; null: any scope',
    }),
  ),
  require_ip_allowlist: required(
    documented(field.boolean(), {
      description: 'Whether every token needs an IP allowlist',
    }),
  ),
  flag_unused_after_days: documented(field.integer({ int32: true }), {
    description: 'Flag tokens unused for longer than this many days, 1 to 365; null: never',
  }),
  expire_unused: documented(field.boolean(), {
    description:
      'Expire tokens unused for flag_unused_after_days, their owner warned 7 days before (ADR 0122)',
  }),
});

const POLICY_FIELDS = {
  max_lifetime_days: { type: ['integer', 'null'] },
  allow_no_expiry: 'boolean',
  member_scopes: { type: ['array', 'null'], items: { type: 'string', enum: SCOPES } },
  require_ip_allowlist: 'boolean',
  flag_unused_after_days: { type: ['integer', 'null'] },
  expire_unused: 'boolean',
  updated_at: 'date-time?',
  updated_by: { type: ['integer', 'null'] },
} as const;

export const TOKEN_POLICY_ROUTES = declareRoutes({
  show: { method: 'GET', url: '/api/token-policy', access: 'any-token' },
  replace: {
    method: 'PUT',
    url: '/api/token-policy',
    access: 'session',
    permission: TOKEN_POLICY_PERMISSION,
    // Type errors go with identity's rules: one 422 names every field.
    input: { body: POLICY_BODY, deferErrors: true },
  },
});

function presentPolicy(policy: TokenPolicy | undefined) {
  return {
    max_lifetime_days: policy?.max_lifetime_days ?? null,
    allow_no_expiry: policy?.allow_no_expiry ?? true,
    member_scopes: policy?.restrict_member_scopes ? policy.member_scopes : null,
    require_ip_allowlist: policy?.require_ip_allowlist ?? false,
    flag_unused_after_days: policy?.flag_unused_after_days ?? null,
    expire_unused: policy?.expire_unused ?? false,
    updated_at: isoOrNull(policy?.updated_at),
    updated_by: policy?.updated_by || null,
  };
}

const tags = ['Personal access tokens'];

/**
 * The tenant's token policy (ADR 0120): anyone signed in or holding a token reads it; a session
 * user with `tokens:govern` replaces it. Tokens breaking it are flagged, never changed.
 */
export async function tokenPolicyRoutes(
  app: FastifyInstance,
  deps: IdentityRouteDeps,
): Promise<void> {
  handle(
    app,
    TOKEN_POLICY_ROUTES.show,
    {
      schema: {
        tags,
        summary: "The organisation's token policy",
        response: { 200: dataOf(row(POLICY_FIELDS)) },
      },
    },
    async () => ({ data: presentPolicy(await deps.identity.getTokenPolicy()) }),
  );

  handle(
    app,
    TOKEN_POLICY_ROUTES.replace,
    {
      schema: {
        tags,
        summary:
          "Replace the organisation's token policy; answers how many active tokens break it (flagged, not changed)",
        response: {
          200: dataOf(row({ ...POLICY_FIELDS, tokens_breaking: 'integer' })),
        },
      },
    },
    async (_request, _reply, input) => {
      const { body: given } = input;
      const answer = await deps.identity.setTokenPolicy({
        policy: {
          max_lifetime_days: given.max_lifetime_days ?? undefined,
          allow_no_expiry: given.allow_no_expiry ?? given.max_lifetime_days == null,
          restrict_member_scopes: Array.isArray(given.member_scopes),
          member_scopes: given.member_scopes ?? [],
          require_ip_allowlist: given.require_ip_allowlist ?? false,
          flag_unused_after_days: given.flag_unused_after_days ?? undefined,
          expire_unused: given.expire_unused ?? false,
          updated_by: 0,
        },
        input_violations: violationsOf(input.errors),
      });
      return {
        data: { ...presentPolicy(answer.policy), tokens_breaking: answer.tokens_breaking },
      };
    },
  );
}
