export {
  addedElevatedScopes,
  isElevatedScope,
  isKnownScope,
  PERMISSIONS,
  SCOPES,
  userHasPermission,
  type Scope,
} from './scopes.js';
