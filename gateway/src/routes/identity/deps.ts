import type { IdentityAdapter } from '../../adapters/identity.js';
import type { LoginThrottle } from '../../auth/login-throttle.js';

export interface IdentityRouteDeps {
  identity: IdentityAdapter;
  throttle: LoginThrottle;
  sessionCookieSecure: boolean;
}
