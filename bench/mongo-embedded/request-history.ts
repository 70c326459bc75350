/**
 * A token's request history on a busy tenant: identity's page query (`find` by tenant and token,
 * newest first, 10 rows) and its `countDocuments`, on rows of one tenant spread over 50 tokens,
 * stored through identity's own `TokenRequestRepository` (its schema and indexes). Each figure is the median
 * of repeated round trips, reported as a ratio to a `ping` round trip measured in the same run.
 *
 * Run: npx tsx --conditions=development bench/mongo-embedded/request-history.ts [rows=100000]
 */
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { TokenRequestRepositoryForBench as TokenRequestRepository } from '@inventory/identity/bench';
import { startEmbeddedMongo } from '@inventory/mongo-embedded';

const ROWS = Number(process.argv[2] ?? 100_000);
const TOKENS = 50;
const REPEATS = 30;

async function median(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const server = await startEmbeddedMongo();
const connection = await mongoose.createConnection(`${server.url}/bench_history`).asPromise();
// Identity's own repository: its schema, indexes and bulk write.
const requests = new TokenRequestRepository(connection, 30);
const Requests = requests.model;
await Requests.init();
for (let done = 0; done < ROWS; done += 5_000)
  await requests.insertMany(
    'tenant-1',
    Array.from({ length: Math.min(5_000, ROWS - done) }, (_, i) => ({
      event_id: randomUUID(),
      tenant_id: 'tenant-1',
      token_id: (done + i) % TOKENS,
      user_id: 1,
      method: 'GET',
      route: '/api/user',
      path: '/api/user',
      status: (done + i) % 10 === 0 ? 500 : 200,
      duration_ms: 1,
      ip: '127.0.0.1',
      user_agent: 'bench',
      at: new Date(Date.now() - (ROWS - done - i) * 10),
    })),
  );

const db = connection.db!;
const ping = await median(() => db.command({ ping: 1 }));
const page = (token: number) =>
  Requests.find({ tenant_id: 'tenant-1', token_id: token }).sort({ at: -1 }).limit(10).lean();
const count = (token: number) =>
  Requests.countDocuments({ tenant_id: 'tenant-1', token_id: token });
const figures = {
  page_of_a_token_with_rows: await median(() => page(7)),
  count_of_a_token_with_rows: await median(() => count(7)),
  count_of_a_token_without_rows: await median(() => count(TOKENS + 1)),
};

const ms = (value: number) => Math.round(value * 100) / 100;
console.log(
  JSON.stringify(
    {
      rows: ROWS,
      rows_per_token: ROWS / TOKENS,
      ping_ms: ms(ping),
      ...Object.fromEntries(
        Object.entries(figures).map(([name, value]) => [
          name,
          { median_ms: ms(value), ratio_to_ping: Math.round((value / ping) * 10) / 10 },
        ]),
      ),
    },
    null,
    2,
  ),
);
await connection.close();
await server.stop();
