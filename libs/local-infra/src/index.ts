export { findBinary, requireBinary } from './binaries.js';
export {
  spawnUntilReady,
  stopProcess,
  type ManagedProcess,
  type SpawnUntilReadyOptions,
} from './child-process.js';
export { spawnServiceMain, type SpawnServiceMainOptions } from './service-main.js';
export { freePort } from './ports.js';
export {
  startNatsServer,
  startRedisServer,
  type LocalServer,
  type LocalServerOptions,
} from './servers.js';
export { startTestInfra, type TestInfra, type TestInfraOptions } from './test-infra.js';
export { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';
// The polling helpers live in @inventory/eventually (no infrastructure, so any test may use them).
export { eventually, waitFor, type EventuallyOptions } from '@inventory/eventually';
export { consumerDrained } from './drained.js';
export { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
export { startFreezableRelay, type FreezableRelay } from './freezable-relay.js';
export { callTimes } from './call-times.js';
export { documentsExamined } from './examined.js';
