export * from './errors.js';
export { batchItemError, boundaryError, type BatchItemRefusal } from './boundary-error.js';
export { contextToMetadata, metadataToContext, METADATA_KEYS } from './metadata.js';
export {
  wrapService,
  wrapStreams,
  type AsyncService,
  type CallContext,
  type StreamContext,
  type StreamHandler,
  type StreamService,
  type UnaryHandler,
} from './handler.js';
export {
  startGrpcServer,
  type GrpcServerHandle,
  type GrpcServerOptions,
  type ServiceRegistration,
} from './server.js';
export {
  createCallBreaker,
  createGrpcClient,
  describeCallError,
  fireOrFailFast,
  type BreakerOptions,
  type GrpcClientHandle,
  type GrpcClientOptions,
  type PromiseClient,
} from './client.js';
export type { ConnectionGate } from './connection-gate.js';
export { serverSpanFault } from './span-fault.js';
export { createHealthProbe, type HealthProbe } from './health-probe.js';
