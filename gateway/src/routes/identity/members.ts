import { TOKEN_POLICY_PERMISSION } from '@inventory/access';
import type { FastifyInstance } from 'fastify';
import { flatEnvelopeSchema } from '../../http/page-schemas.js';
import { FLAT_PAGE } from '../../http/page-fields.js';
import { flatEnvelope, pageMeta, rawQueryOf } from '../../http/pagination.js';
import { row } from '../../http/row-schema.js';
import { declareRoutes, handle } from '../../http/routes.js';
import type { IdentityRouteDeps } from './deps.js';

const BASE = '/api/organization/members';

/**
 * The tenant's members by id (ADR 0124): who a `causer_id` or a token's owner is. The same admins
 * as the review of every member's tokens (`tokens:govern`, ADR 0121), who see these names there.
 */
export const MEMBER_ROUTES = declareRoutes({
  list: {
    method: 'GET',
    url: BASE,
    access: 'session',
    permission: TOKEN_POLICY_PERMISSION,
    input: { query: FLAT_PAGE },
  },
});

const MEMBER_ROW = row({ id: 'integer', name: 'string', email: 'string' });

export async function memberRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  handle(
    app,
    MEMBER_ROUTES.list,
    {
      schema: {
        tags: ['Users'],
        summary: "The tenant's members by id: id, name and email (admins holding tokens:govern)",
        response: { 200: flatEnvelopeSchema(MEMBER_ROW) },
      },
    },
    async (request, _reply, input) => {
      const { page, per_page: perPage } = input.query;
      const answer = await deps.identity.listMembers(page, perPage);
      const data = answer.members.map((member) => ({
        id: member.id,
        name: member.name,
        email: member.email,
      }));
      return flatEnvelope(
        data,
        pageMeta(page, perPage, answer.total, data.length),
        `${request.tenant.base_url}${BASE}`,
        rawQueryOf(request),
      );
    },
  );
}
