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
export {
  API_DOCUMENT,
  ContractLedger,
  contractClient,
  documentedOperations,
  type ContractClientOptions,
  type DocumentedOperation,
} from './fixtures/contract.js';
export { previousStepCode, totpCode } from './fixtures/totp.js';
export { npmRunEmit, type EmitResult } from './fixtures/emit.js';
export { productCreatedEntry, type ProductRecordFields } from './fixtures/product-created.js';
export { adminEnv, npmRunAdmin } from './fixtures/admin.js';
export { activityRowsOf } from './fixtures/activity-rows.js';
export {
  launchSystem,
  descendants,
  errorLines,
  type LaunchedSystem,
} from './resilience/launcher.js';
export { ALL_FAULTS, type Fault, type ProbeName } from './resilience/fault-list.js';
export {
  formatFigures,
  runFaults,
  type FaultFigures,
  type FaultRun,
} from './resilience/fault-runner.js';
export { lostOutboundReport, type OutboundFigures } from './resilience/outbound-traffic.js';
