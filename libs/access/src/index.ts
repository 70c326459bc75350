export {
  addedElevatedScopes,
  ALERTS_PERMISSION,
  isElevatedScope,
  isKnownScope,
  PERMISSIONS,
  SCOPES,
  TOKEN_POLICY_PERMISSION,
  userHasPermission,
  type Scope,
} from './scopes.js';
export { MAX_ACTIVE_TOKENS, TOKEN_EXPIRATION_HEADER } from './tokens.js';
export {
  crc32,
  hasTokenChecksum,
  parseToken,
  secretWithChecksum,
  tokenChecksum,
  TOKEN_CHECKSUM_LENGTH,
  TOKEN_PATTERN,
  TOKEN_RANDOM_LENGTH,
  TOKEN_SECRET_LENGTH,
} from './token-secret.js';
