export {
  ServiceRuntime,
  type ServiceRuntimeConfig,
  type ServiceRuntimeOptions,
} from './runtime.js';
