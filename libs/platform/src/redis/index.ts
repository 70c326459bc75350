export {
  connectRedis,
  DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
  type ConnectRedisOptions,
  type Redis,
} from './connection.js';
export { withScripts, type RedisScript } from './scripts.js';
