export { ConfigError, loadConfig, loadConfigOrExit } from './load-config.js';
export { booleanFlag, logLevel, port, serviceEnv, tracingEnv, url } from './env-fields.js';
