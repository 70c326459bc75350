export {
  describeFailedStart,
  describeServiceBoot,
  PLATFORM_SERIES,
  type ServiceBootstrap,
} from './service-boot.js';
export { withCommandMonitoring } from './command-monitoring.js';
