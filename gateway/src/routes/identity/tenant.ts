import type { FastifyInstance } from 'fastify';
import { dataOf, row } from '../../http/row-schema.js';
import { declareRoutes, handle } from '../../http/routes.js';

export const TENANT_ROUTES = declareRoutes({
  current: { method: 'GET', url: '/api/tenant', access: 'any-token' },
});

/**
 * The tenant whose address answered: its name for a page header or a client's log line. Read
 * from the host's resolution the request already made, so it costs no call.
 */
export async function tenantRoutes(app: FastifyInstance): Promise<void> {
  handle(
    app,
    TENANT_ROUTES.current,
    {
      schema: {
        tags: ['Users'],
        summary: 'The tenant this address belongs to',
        response: {
          200: dataOf(row({ name: 'string', slug: 'string', base_url: 'string' })),
        },
      },
    },
    (request) => {
      const { name, slug, base_url } = request.tenant;
      return { data: { name, slug, base_url } };
    },
  );
}
