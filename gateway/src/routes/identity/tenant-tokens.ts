import { TOKEN_POLICY_PERMISSION } from '@inventory/access';
import type { TenantToken } from '@inventory/contracts/identity/v1/identity.js';
import type { FastifyInstance } from 'fastify';
import { flatEnvelopeSchema } from '../../http/page-schemas.js';
import { FLAT_PAGE } from '../../http/page-fields.js';
import { flatEnvelope, pageMeta, rawQueryOf } from '../../http/pagination.js';
import { query } from '../../http/query-fields.js';
import { row } from '../../http/row-schema.js';
import { declareRoutes, handle } from '../../http/routes.js';
import type { IdentityRouteDeps } from './deps.js';
import { presentToken } from './present.js';
import { TOKEN } from './token-inputs.js';
import { TOKEN_FIELDS } from './token-schemas.js';

const BASE = '/api/organization/personal-access-tokens';

/** `filter[user_id]`: one member's tokens. */
const TENANT_TOKENS_QUERY = {
  ...FLAT_PAGE,
  user_id: query.list({
    description: "A user's id: only that member's tokens",
    limit: { maxItems: 1, itemMax: 16 },
    each: (item) => (/^[1-9]\d{0,15}$/.test(item) ? item : undefined),
    rejected: () => 'The filter.user_id field must be a user id.',
  }),
};

/** The admins' review of every member's tokens (ADR 0121): a session holding tokens:govern. */
export const TENANT_TOKEN_ROUTES = declareRoutes({
  list: {
    method: 'GET',
    url: BASE,
    access: 'session',
    permission: TOKEN_POLICY_PERMISSION,
    input: { query: TENANT_TOKENS_QUERY },
  },
  revoke: {
    method: 'DELETE',
    url: `${BASE}/:id`,
    access: 'session',
    permission: TOKEN_POLICY_PERMISSION,
    successStatus: 204,
    input: { params: TOKEN },
  },
});

const REVIEWED_TOKEN_ROW = row({
  ...TOKEN_FIELDS,
  user: row({ id: 'integer', name: 'string', email: 'string' }),
  last_used_ip: { type: ['string', 'null'] },
  last_used_user_agent: { type: ['string', 'null'] },
  state: { type: 'string', enum: ['active', 'expired'] },
});

function presentReviewedToken(reviewed: TenantToken) {
  return {
    ...presentToken(reviewed.token!),
    user: { id: reviewed.user_id, name: reviewed.user_name, email: reviewed.user_email },
    last_used_ip: reviewed.last_used_ip || null,
    last_used_user_agent: reviewed.last_used_user_agent || null,
    state: reviewed.state,
  };
}

const tags = ['Personal access tokens'];

export async function tenantTokenRoutes(
  app: FastifyInstance,
  deps: IdentityRouteDeps,
): Promise<void> {
  handle(
    app,
    TENANT_TOKEN_ROUTES.list,
    {
      schema: {
        tags,
        summary:
          "Every member's active and expired tokens with their owner and last use (admins holding tokens:govern)",
        response: { 200: flatEnvelopeSchema(REVIEWED_TOKEN_ROW) },
      },
    },
    async (request, _reply, input) => {
      const { page, per_page: perPage, user_id: userIds } = input.query;
      const answer = await deps.identity.listTenantTokens({
        page,
        per_page: perPage,
        user_id: userIds[0] === undefined ? undefined : Number(userIds[0]),
      });
      const data = answer.tokens.map(presentReviewedToken);
      return flatEnvelope(
        data,
        pageMeta(page, perPage, answer.total, data.length),
        `${request.tenant.base_url}${BASE}`,
        rawQueryOf(request),
      );
    },
  );

  handle(
    app,
    TENANT_TOKEN_ROUTES.revoke,
    {
      schema: {
        tags,
        summary:
          "Revoke any member's token: refused on the next request, its owner alerted, in the activity log",
      },
    },
    async (_request, reply, input) => {
      await deps.identity.revokeTenantToken(input.params.id);
      return reply.send();
    },
  );
}
