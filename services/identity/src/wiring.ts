import type { Logger, SecretBox } from '@inventory/platform';
import type { IdentitySettings } from './config.js';
import type { TokenEvents } from './events/token-events.js';
import type { UserEvents } from './events/user-events.js';
import type { IdentityStore } from './store/repositories.js';
import { ConfirmTwoFactor } from './use-cases/confirm-two-factor.js';
import { CreateTenant } from './use-cases/create-tenant.js';
import { CreateToken } from './use-cases/create-token.js';
import { CreateUser } from './use-cases/create-user.js';
import { DisableTwoFactor } from './use-cases/disable-two-factor.js';
import { SetUserPermissions } from './use-cases/set-user-permissions.js';
import { EnrollTwoFactor } from './use-cases/enroll-two-factor.js';
import { GetSession } from './use-cases/get-session.js';
import { GetTokenForAuth } from './use-cases/get-token-for-auth.js';
import { GetTokenUsage } from './use-cases/get-token-usage.js';
import { GetUser } from './use-cases/get-user.js';
import { GetUsers } from './use-cases/get-users.js';
import { ListTokenRequests } from './use-cases/list-token-requests.js';
import { ListMembers } from './use-cases/list-members.js';
import { ListTokens } from './use-cases/list-tokens.js';
import { Login } from './use-cases/login.js';
import { Logout } from './use-cases/logout.js';
import { RecordTokenRequests } from './use-cases/record-token-requests.js';
import { ResolveTenant } from './use-cases/resolve-tenant.js';
import { RegenerateToken } from './use-cases/regenerate-token.js';
import { ReportLeakedTokens } from './use-cases/report-leaked-tokens.js';
import { RevokeToken } from './use-cases/revoke-token.js';
import { SecondFactor } from './use-cases/second-factor.js';
import { TenantTokens } from './use-cases/tenant-tokens.js';
import { TokenPolicies } from './use-cases/token-policy.js';
import { UpdateToken } from './use-cases/update-token.js';

/**
 * The composition root shared by the service's bootstrap and the offline entry
 * (admin CLI, development seed): each use case gets exactly the repositories and
 * collaborators it names, nothing else.
 */
export function wireUseCases(parts: {
  store: IdentityStore;
  tokenEvents: TokenEvents;
  userEvents: UserEvents;
  secrets: SecretBox;
  settings: IdentitySettings;
  logger: Logger;
}) {
  const { store, tokenEvents, userEvents, secrets, settings, logger } = parts;
  const { tenants, users, sessions, tokens, requests, policies } = store;
  const secondFactor = new SecondFactor(users, secrets, logger);
  const getUser = new GetUser(users);
  const tokenPolicies = new TokenPolicies({ policies, tokens, users });
  return {
    resolveTenant: new ResolveTenant(tenants),
    createTenant: new CreateTenant(tenants, settings.baseDomain),
    createUser: new CreateUser(tenants, users),
    getUser,
    getUsers: new GetUsers(getUser),
    listMembers: new ListMembers(users),
    login: new Login(users, sessions, secondFactor, settings.sessionTtlMinutes),
    getSession: new GetSession(sessions, users),
    logout: new Logout(sessions),
    enrollTwoFactor: new EnrollTwoFactor(users, secrets, settings.totpIssuer),
    confirmTwoFactor: new ConfirmTwoFactor(users, secrets, userEvents),
    disableTwoFactor: new DisableTwoFactor(users, secondFactor, userEvents),
    setUserPermissions: new SetUserPermissions(users, userEvents),
    getTokenForAuth: new GetTokenForAuth(tokens, users),
    tokenPolicies,
    createToken: new CreateToken(tokens, users, tokenPolicies),
    listTokens: new ListTokens(tokens, tokenPolicies),
    updateToken: new UpdateToken(tokens, users, secondFactor, tokenEvents, tokenPolicies),
    revokeToken: new RevokeToken(tokens, tokenEvents),
    regenerateToken: new RegenerateToken(tokens, users, secondFactor, tokenEvents, tokenPolicies),
    reportLeakedTokens: new ReportLeakedTokens(tokens, users, tokenEvents),
    tenantTokens: new TenantTokens({
      tokens,
      users,
      requests,
      policies: tokenPolicies,
      events: tokenEvents,
    }),
    listTokenRequests: new ListTokenRequests(tokens, requests),
    getTokenUsage: new GetTokenUsage(tokens, requests),
    recordTokenRequests: new RecordTokenRequests(requests, tokens),
  };
}

export type IdentityUseCases = ReturnType<typeof wireUseCases>;
