export { connectRedis, type Redis } from './connection.js';
