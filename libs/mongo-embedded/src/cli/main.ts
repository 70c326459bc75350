import { parseArgs } from 'node:util';
import { startEmbeddedMongo } from '../index.js';
import { stderrLogger } from '../logger.js';
import type { FsyncPolicy } from '../storage/journal.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '27017' },
    host: { type: 'string', default: '127.0.0.1' },
    dbpath: { type: 'string' },
    fsync: { type: 'string', default: 'interval' },
    // Journal size that starts a compaction (default 64 MiB).
    'compact-bytes': { type: 'string' },
  },
});

const fsync = values.fsync as FsyncPolicy;
if (!['always', 'interval', 'never'].includes(fsync)) {
  console.error(`--fsync must be always|interval|never, got ${fsync}`);
  process.exit(2);
}

const compactBytes = values['compact-bytes'] ? Number(values['compact-bytes']) : undefined;
if (compactBytes !== undefined && !(Number.isSafeInteger(compactBytes) && compactBytes > 0)) {
  console.error(`--compact-bytes must be a positive integer, got ${values['compact-bytes']}`);
  process.exit(2);
}

const server = await startEmbeddedMongo({
  port: Number(values.port),
  host: values.host,
  dataDir: values.dbpath,
  fsync,
  compactBytes,
  logger: stderrLogger,
});
console.log(
  `mongo-embedded ready on ${server.url}${values.dbpath ? ` (dbpath ${values.dbpath}, fsync ${fsync})` : ' (in-memory)'}`,
);

let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`mongo-embedded received ${signal}, flushing and closing`);
  server.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
