/**
 * The whole system's CPU while idle beside one instance of `--rows` tracking rows, with the
 * background workers on at their production interval (5 s): what an instance costs when nothing
 * is due (ADR 0730).
 *
 *   npx tsx --conditions=development bench/parcel-trackings/idle.ts [--rows 100000] [--windows 4] [--port-base 26000]
 *
 * The system runs as `npm start` runs it (compiled, every part its own process). The rows are
 * the trackings bench's (registered, freshly polled); those delivered over a week ago are marked
 * stopped, as the stopping worker would have left them, so nothing is due. Prints the CPU of every
 * process together, per second, in windows of 15 s after a 20 s settle, with the three busiest.
 */
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { connectParcelInstance } from '../lib/parcel-instance.js';
import { launchSystem } from '../lib/system.js';
import { withCpu } from '../table/measure.js';
import { seedTrackings } from './seed.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    windows: { type: 'string', default: '4' },
    'port-base': { type: 'string', default: '26000' },
  },
});
const WINDOW_SECONDS = 15;
const DAY_MS = 86_400_000;
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const system = await launchSystem(Number(values['port-base']), { LOG_LEVEL: 'warn' });
try {
  const auth = {
    host: system.dev.host,
    authorization: `Bearer ${system.dev.token}`,
    accept: 'application/json',
  };
  const instance = await connectParcelInstance(
    system.gatewayUrl,
    auth,
    system.dev.provider_api_key,
  );
  await seedTrackings(system.dev.mongo_url, system.dev.tenant_id, instance.id, Number(values.rows));
  const client = await MongoClient.connect(system.dev.mongo_url);
  try {
    const now = new Date();
    const { modifiedCount } = await client
      .db('parcel_tracking')
      .collection('tracking_rows')
      .updateMany(
        {
          delivery_status: 'delivered',
          delivered_at: { $lt: new Date(now.getTime() - 7 * DAY_MS) },
        },
        { $set: { active: false, stopped_at: now, provider_stopped_at: now } },
      );
    console.log(
      `${values.rows} rows, ${modifiedCount} of them delivered over a week ago and stopped`,
    );
  } finally {
    await client.close();
  }
  await pause(20_000);
  for (let window = 1; window <= Number(values.windows); window++) {
    const { cpuMs } = await withCpu(system.processes(), () => pause(WINDOW_SECONDS * 1000));
    const perSecond = (ms: number) => Math.round(ms / WINDOW_SECONDS);
    const total = Object.values(cpuMs).reduce((sum, ms) => sum + ms, 0);
    const busiest = Object.entries(cpuMs)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, ms]) => `${name} ${perSecond(ms)}`)
      .join(', ');
    console.log(`window ${window}: ${perSecond(total)} ms of CPU per second (${busiest})`);
  }
} finally {
  await system.stop();
}
