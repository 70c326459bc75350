export {
  addedElevatedScopes,
  ALERTS_PERMISSION,
  isElevatedScope,
  isKnownScope,
  PERMISSIONS,
  SCOPES,
  userHasPermission,
  type Scope,
} from './scopes.js';
export { MAX_ACTIVE_TOKENS, TOKEN_EXPIRATION_HEADER } from './tokens.js';
