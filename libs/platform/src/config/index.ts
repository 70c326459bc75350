export { ConfigError, loadConfig, loadConfigOrExit } from './load-config.js';
export {
  booleanFlag,
  logLevel,
  port,
  retentionDays,
  serviceEnv,
  tracingEnv,
  url,
} from './env-fields.js';
