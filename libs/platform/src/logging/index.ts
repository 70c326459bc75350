export {
  createLogger,
  maskSecrets,
  REDACTED_PATHS,
  type Logger,
  type LoggerSettings,
} from './logger.js';
export {
  currentContext,
  enterContext,
  newRequestId,
  runWithContext,
  type RequestContext,
} from './request-context.js';
export { OutageLog } from './outage-log.js';
