export { ConfigError, loadConfig, loadConfigOrExit } from './load-config.js';
export { booleanFlag, logLevel, port, serviceEnv, url } from './env-fields.js';
