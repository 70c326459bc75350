/**
 * The embedded server alone in its own process (started by `engine-process.ts`): prints
 * `PORT <n>` when listening and answers each IPC message with its own `process.cpuUsage()`, so the
 * bench can charge server CPU (not the client's) to each phase. Args: [dataDir] [fsync].
 * BENCH_ENGINE=<another copy's src/index.ts> runs that copy of the engine instead of this checkout's.
 */
import * as embedded from '@inventory/mongo-embedded';

const { startEmbeddedMongo } = (
  process.env.BENCH_ENGINE ? await import(process.env.BENCH_ENGINE) : embedded
) as typeof embedded;
const dataDir = process.argv[2] || undefined;
const fsync = (process.argv[3] ?? 'interval') as 'always' | 'interval' | 'never';
const server = await startEmbeddedMongo(dataDir ? { dataDir, fsync } : {});
process.on('message', () => process.send!(process.cpuUsage()));
process.on('disconnect', () => void server.stop().then(() => process.exit(0)));
process.stdout.write(`PORT ${server.port}\n`);
