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
import type { IdentityUseCases } from '../wiring.js';
import {
  presentAuthToken,
  presentRequest,
  presentReviewedToken,
  presentTenant,
  presentToken,
  presentTokenPolicy,
  presentUsage,
  presentUser,
  tokenPolicyOf,
} from './mappers.js';
import { streamUsers } from './user-stream.js';

/** The acting user comes only from `x-user-id` metadata, set by the gateway after authentication. */
function actingUser(ctx: CallContext): number {
  const id = Number(ctx.userId);
  if (!ctx.userId || !Number.isSafeInteger(id) || id <= 0)
    throw unauthenticated('x-user-id metadata is required');
  return id;
}

/** Thin handlers: metadata and message in, one use case, the mapper's proto out. */
export function identityService(
  useCases: IdentityUseCases,
  logger: Logger,
): ServiceRegistration<IdentityServiceServer> {
  const implementation: AsyncService<IdentityServiceServer> = {
    resolveTenant: async (request) => ({
      tenant: presentTenant(await useCases.resolveTenant.execute(request.host)),
    }),
    createTenant: async (request) => ({
      tenant: presentTenant(
        await useCases.createTenant.execute({
          slug: request.slug,
          name: request.name,
          customDomains: request.custom_domains,
        }),
      ),
    }),
    createUser: async (request, ctx) => ({
      user: presentUser(
        await useCases.createUser.execute(ctx.tenant(), {
          email: request.email,
          name: request.name,
          password: request.password,
          isOwner: request.is_owner,
          permissions: request.permissions,
        }),
      ),
    }),
    getUser: async (_request, ctx) => ({
      user: presentUser(await useCases.getUser.execute(ctx.tenant(), actingUser(ctx))),
    }),
    login: async (request, ctx) => {
      const opened = await useCases.login.execute(ctx.tenant(), {
        email: request.email,
        password: request.password,
        twoFactorCode: request.two_factor_code,
      });
      return {
        session_token: opened.sessionToken,
        csrf_token: opened.csrfToken,
        user: presentUser(opened.user),
        expires_at: opened.expiresAt,
      };
    },
    getSession: async (request, ctx) => {
      const { session, user } = await useCases.getSession.execute(
        ctx.tenant(),
        request.session_token,
      );
      return {
        session: {
          user: presentUser(user),
          csrf_hash: session.csrf_hash,
          expires_at: session.expires_at,
        },
      };
    },
    logout: async (request, ctx) => {
      await useCases.logout.execute(ctx.tenant(), request.session_token);
      return {};
    },
    enrollTwoFactor: async (_request, ctx) => {
      const enrolled = await useCases.enrollTwoFactor.execute(ctx.tenant(), actingUser(ctx));
      return { secret: enrolled.secret, otpauth_url: enrolled.otpauthUrl };
    },
    confirmTwoFactor: async (request, ctx) => ({
      recovery_codes: await useCases.confirmTwoFactor.execute(
        ctx.tenant(),
        actingUser(ctx),
        request.code,
      ),
    }),
    disableTwoFactor: async (request, ctx) => {
      await useCases.disableTwoFactor.execute(
        ctx.tenant(),
        actingUser(ctx),
        request.password,
        request.code,
      );
      return {};
    },
    getTokenForAuth: async (request, ctx) => {
      const { token, user } = await useCases.getTokenForAuth.execute(
        ctx.tenant(),
        request.token_id,
      );
      return { token: presentAuthToken(token, user) };
    },
    createToken: async (request, ctx) => {
      const created = await useCases.createToken.execute(
        ctx.tenant(),
        actingUser(ctx),
        {
          name: request.name,
          scopes: request.scopes,
          expiresAt: request.expires_at,
          ipAllowlist: request.ip_allowlist,
          rateLimitPerMinute: request.rate_limit_per_minute,
          inputViolations: request.input_violations,
        },
        ctx.signal,
      );
      return { token: presentToken(created.token), plain_text_token: created.plainTextToken };
    },
    listTokens: async (request, ctx) => {
      const { rows, total, flags } = await useCases.listTokens.execute(
        ctx.tenant(),
        actingUser(ctx),
        request.page || 1,
        request.per_page || 10,
      );
      return {
        tokens: rows.map((token) => presentToken(token, flags.get(token.id))),
        total,
      };
    },
    updateToken: async (request, ctx) => ({
      token: presentToken(
        await useCases.updateToken.execute(ctx.tenant(), actingUser(ctx), request.id, {
          name: request.name,
          scopes: request.scopes?.values,
          ipAllowlist: request.ip_allowlist?.values,
          rateLimitPerMinute: request.rate_limit_per_minute,
          password: request.password,
          twoFactorCode: request.two_factor_code,
          inputViolations: request.input_violations,
        }),
      ),
    }),
    revokeToken: async (request, ctx) => {
      await useCases.revokeToken.execute(ctx.tenant(), actingUser(ctx), request.id);
      return {};
    },
    regenerateToken: async (request, ctx) => {
      const regenerated = await useCases.regenerateToken.execute(
        ctx.tenant(),
        actingUser(ctx),
        request.id,
        {
          expiresAt: request.expires_at,
          name: request.name,
          scopes: request.scopes?.values,
          ipAllowlist: request.ip_allowlist?.values,
          rateLimitPerMinute: request.rate_limit_per_minute,
          password: request.password,
          twoFactorCode: request.two_factor_code,
          inputViolations: request.input_violations,
        },
      );
      return {
        token: presentToken(regenerated.token),
        plain_text_token: regenerated.plainTextToken,
      };
    },
    reportLeakedTokens: async (request, ctx) => {
      await useCases.reportLeakedTokens.execute(ctx.tenant(), request.tokens, request.url);
      return {};
    },
    listTokenRequests: async (request, ctx) => {
      const { rows, total } = await useCases.listTokenRequests.execute(
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
      );
      return { requests: rows.map(presentRequest), total };
    },
    getTokenPolicy: async (_request, ctx) => ({
      policy: presentTokenPolicy(await useCases.tokenPolicies.get(ctx.tenant())),
    }),
    setTokenPolicy: async (request, ctx) => {
      const { policy, tokensBreaking } = await useCases.tokenPolicies.set(
        ctx.tenant(),
        actingUser(ctx),
        tokenPolicyOf(request.policy),
        request.input_violations,
      );
      return { policy: presentTokenPolicy(policy), tokens_breaking: tokensBreaking };
    },
    listTenantTokens: async (request, ctx) => {
      const { rows, total } = await useCases.tenantTokens.list(ctx.tenant(), {
        userId: request.user_id,
        page: request.page || 1,
        perPage: request.per_page || 20,
      });
      return { tokens: rows.map(presentReviewedToken), total };
    },
    listMembers: async (request, ctx) => {
      const { rows, total } = await useCases.listMembers.execute(ctx.tenant(), request);
      return {
        members: rows.map((user) => ({ id: user.id, name: user.name, email: user.email })),
        total,
      };
    },
    revokeTenantToken: async (request, ctx) => {
      await useCases.tenantTokens.revoke(ctx.tenant(), actingUser(ctx), request.id);
      return {};
    },
    getTokenUsage: async (request, ctx) => ({
      usage: presentUsage(
        await useCases.getTokenUsage.execute(
          ctx.tenant(),
          actingUser(ctx),
          request.token_id,
          request.days,
        ),
      ),
    }),
  };
  return {
    name: 'inventory.identity.v1.IdentityService',
    definition: IdentityServiceService,
    implementation,
    streams: { streamUsers: streamUsers(useCases.getUsers, logger) },
  };
}
