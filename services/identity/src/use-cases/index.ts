import { CreateTenant } from './create-tenant.js';
import { CreateToken } from './create-token.js';
import { CreateUser } from './create-user.js';
import type { UseCaseDeps } from './deps.js';
import { GetTokenForAuth } from './get-token-for-auth.js';
import { GetUser } from './get-user.js';
import { ListTokens } from './list-tokens.js';
import { Login } from './login.js';
import { RecordTokenRequests } from './record-token-requests.js';
import { ResolveTenant } from './resolve-tenant.js';
import { RevokeToken } from './revoke-token.js';
import { GetSession, Logout } from './sessions.js';
import { GetTokenUsage, ListTokenRequests } from './token-requests.js';
import { ConfirmTwoFactor, DisableTwoFactor, EnrollTwoFactor } from './two-factor.js';
import { UpdateToken } from './update-token.js';

export type { UseCaseDeps, IdentitySettings } from './deps.js';

export function createUseCases(deps: UseCaseDeps) {
  return {
    createTenant: new CreateTenant(deps),
    resolveTenant: new ResolveTenant(deps),
    createUser: new CreateUser(deps),
    getUser: new GetUser(deps),
    login: new Login(deps),
    getSession: new GetSession(deps),
    logout: new Logout(deps),
    enrollTwoFactor: new EnrollTwoFactor(deps),
    confirmTwoFactor: new ConfirmTwoFactor(deps),
    disableTwoFactor: new DisableTwoFactor(deps),
    getTokenForAuth: new GetTokenForAuth(deps),
    createToken: new CreateToken(deps),
    listTokens: new ListTokens(deps),
    updateToken: new UpdateToken(deps),
    revokeToken: new RevokeToken(deps),
    listTokenRequests: new ListTokenRequests(deps),
    getTokenUsage: new GetTokenUsage(deps),
    recordTokenRequests: new RecordTokenRequests(deps),
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
