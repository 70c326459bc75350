export { startEmbeddedMongo, type EmbeddedMongo, type EmbeddedMongoOptions } from './embedded.js';
export type { Logger } from './logger.js';
export type { FsyncPolicy } from './storage/journal.js';
