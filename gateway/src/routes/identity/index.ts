import type { FastifyInstance } from 'fastify';
import type { IdentityRouteDeps } from './deps.js';
import { leakedTokenRoutes } from './leaked-tokens.js';
import { memberRoutes } from './members.js';
import { sessionRoutes } from './session.js';
import { tenantRoutes } from './tenant.js';
import { tenantTokenRoutes } from './tenant-tokens.js';
import { tokenPolicyRoutes } from './token-policy.js';
import { tokenRoutes } from './tokens.js';
import { userRoutes } from './user.js';

export type { IdentityRouteDeps } from './deps.js';

/** Sign-in, the current user and 2FA, its tenant, personal access tokens (adapters/identity.ts). */
export async function identityRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  await app.register(sessionRoutes, deps);
  await userRoutes(app, deps);
  await tenantRoutes(app);
  await tokenRoutes(app, deps);
  await tokenPolicyRoutes(app, deps);
  await tenantTokenRoutes(app, deps);
  await leakedTokenRoutes(app, deps);
  await memberRoutes(app, deps);
}
