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
