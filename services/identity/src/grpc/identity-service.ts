import {
  IdentityServiceService,
  type IdentityServiceServer,
} from '@inventory/contracts/identity/v1/identity.js';
import {
  unauthenticated,
  type AsyncService,
  type CallContext,
  type Logger,
  type ServiceRegistration,
} from '@inventory/platform';
import type { UseCases } from '../use-cases/index.js';
import { streamUsers } from './user-stream.js';

/** The acting user comes only from `x-user-id` metadata, set by the gateway after authentication. */
function actingUser(ctx: CallContext): number {
  const id = Number(ctx.userId);
  if (!ctx.userId || !Number.isSafeInteger(id) || id <= 0)
    throw unauthenticated('x-user-id metadata is required');
  return id;
}

export function identityService(
  useCases: UseCases,
  logger: Logger,
): ServiceRegistration<IdentityServiceServer> {
  const implementation: AsyncService<IdentityServiceServer> = {
    resolveTenant: async (request) => ({
      tenant: await useCases.resolveTenant.execute(request.host),
    }),
    createTenant: async (request) => ({
      tenant: await useCases.createTenant.execute({
        slug: request.slug,
        name: request.name,
        customDomains: request.custom_domains,
      }),
    }),
    createUser: async (request, ctx) => ({
      user: await useCases.createUser.execute(ctx.tenant(), {
        email: request.email,
        name: request.name,
        password: request.password,
        isOwner: request.is_owner,
        permissions: request.permissions,
      }),
    }),
    getUser: async (_request, ctx) => ({
      user: await useCases.getUser.execute(ctx.tenant(), actingUser(ctx)),
    }),
    login: async (request, ctx) =>
      useCases.login.execute(ctx.tenant(), {
        email: request.email,
        password: request.password,
        twoFactorCode: request.two_factor_code,
      }),
    getSession: async (request, ctx) => ({
      session: await useCases.getSession.execute(ctx.tenant(), request.session_token),
    }),
    logout: async (request, ctx) => {
      await useCases.logout.execute(ctx.tenant(), request.session_token);
      return {};
    },
    enrollTwoFactor: async (_request, ctx) =>
      useCases.enrollTwoFactor.execute(ctx.tenant(), actingUser(ctx)),
    confirmTwoFactor: async (request, ctx) =>
      useCases.confirmTwoFactor.execute(ctx.tenant(), actingUser(ctx), request.code),
    disableTwoFactor: async (request, ctx) => {
      await useCases.disableTwoFactor.execute(
        ctx.tenant(),
        actingUser(ctx),
        request.password,
        request.code,
      );
      return {};
    },
    getTokenForAuth: async (request, ctx) => ({
      token: await useCases.getTokenForAuth.execute(ctx.tenant(), request.token_id),
    }),
    createToken: async (request, ctx) =>
      useCases.createToken.execute(
        ctx.tenant(),
        actingUser(ctx),
        {
          name: request.name,
          scopes: request.scopes,
          expiresAt: request.expires_at,
          ipAllowlist: request.ip_allowlist,
          rateLimitPerMinute: request.rate_limit_per_minute,
        },
        ctx.signal,
      ),
    listTokens: async (request, ctx) =>
      useCases.listTokens.execute(
        ctx.tenant(),
        actingUser(ctx),
        request.page || 1,
        request.per_page || 10,
      ),
    updateToken: async (request, ctx) => ({
      token: await useCases.updateToken.execute(ctx.tenant(), actingUser(ctx), request.id, {
        name: request.name,
        scopes: request.scopes?.values,
        ipAllowlist: request.ip_allowlist?.values,
        rateLimitPerMinute: request.rate_limit_per_minute,
        password: request.password,
        twoFactorCode: request.two_factor_code,
      }),
    }),
    revokeToken: async (request, ctx) => {
      await useCases.revokeToken.execute(ctx.tenant(), actingUser(ctx), request.id);
      return {};
    },
    listTokenRequests: async (request, ctx) =>
      useCases.listTokenRequests.execute(
        ctx.tenant(),
        actingUser(ctx),
        request.token_id,
        {
          statuses: request.statuses,
          statusClasses: request.status_classes,
          from: request.from,
          to: request.to,
        },
        request.page || 1,
        request.per_page || 10,
      ),
    getTokenUsage: async (request, ctx) => ({
      usage: await useCases.getTokenUsage.execute(
        ctx.tenant(),
        actingUser(ctx),
        request.token_id,
        request.days,
      ),
    }),
  };
  return {
    name: 'inventory.identity.v1.IdentityService',
    definition: IdentityServiceService,
    implementation,
    streams: { streamUsers: streamUsers(useCases, logger) },
  };
}
