export { startSystem, type RunningSystem, type SystemOptions } from './system.js';
export {
  ALL_SCOPES,
  asUser,
  baseUrlOf,
  createTenantWithToken,
  createUserWithToken,
  identityClient,
  loginSession,
  startSecondGateway,
  type RequestFn,
  type SessionFixture,
  type TenantFixture,
  type TenantFixtureOptions,
} from './fixtures/tenants.js';
export { httpCall, type HttpResponse } from './fixtures/http.js';
export { totpCode } from './fixtures/totp.js';
export { npmRunEmit, type EmitResult } from './fixtures/emit.js';
export { launchSystem, descendants, type LaunchedSystem } from './resilience/launcher.js';
export {
  ALL_FAULTS,
  formatFigures,
  runFaults,
  type Fault,
  type FaultFigures,
  type FaultRun,
} from './resilience/fault-runner.js';
