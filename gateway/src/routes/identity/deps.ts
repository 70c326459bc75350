import type { CurrentUserLoader } from '../../adapters/current-user-loader.js';
import type { IdentityAdapter } from '../../adapters/identity.js';
import type { LoginThrottle } from '../../auth/login-throttle.js';

export interface IdentityRouteDeps {
  identity: IdentityAdapter;
  currentUsers: CurrentUserLoader;
  throttle: LoginThrottle;
  sessionCookieSecure: boolean;
}
