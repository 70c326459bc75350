import mongoose from 'mongoose';
import { freePort } from '@inventory/local-infra';
import { Catalog } from '@inventory/mongo-embedded/bench';
import { pacedCalls } from '../lib/paced.js';
import { percentile } from '../lib/percentile.js';
import { startNodeScript, stopChild } from '../lib/system.js';
import { count, type BenchContext } from './context.js';
import { withCpu } from './measure.js';
import type { Measured, RowInput } from './report.js';

const doc = (i: number) => ({ sku: `SKU-${i}`, code: `C-${i}`, qty: i % 100, name: `Item ${i}` });

/** CPU of `operations` calls of `work` in this process, as the in-process engine's own cost. */
function inProcess(operations: number, work: (i: number) => void): Measured {
  const before = process.cpuUsage();
  for (let i = 0; i < operations; i++) work(i);
  const spent = process.cpuUsage(before);
  return { operations, cpuMs: { 'in-process engine': (spent.user + spent.system) / 1000 } };
}

/**
 * The embedded MongoDB as its own process (as the launcher runs it, memory only), driven through
 * the driver at a paced rate: its CPU per indexed look-up and per insert, against the same
 * operations on the engine's own storage in this process (no wire, no socket, no driver).
 */
export async function mongoRows(
  context: Pick<BenchContext, 'quick' | 'wants' | 'log'>,
): Promise<RowInput[]> {
  const docs = count(context, 100_000, 20_000);
  const total = count(context, 5000, 2000);
  const port = await freePort();
  const server = await startNodeScript(
    ['libs/mongo-embedded/src/cli/main.ts', '--port', String(port)],
    {},
    /mongo-embedded ready/,
  );
  const connection = mongoose.createConnection(`mongodb://127.0.0.1:${port}`, { dbName: 'bench' });
  try {
    await connection.asPromise();
    const items = connection.db!.collection('items');
    await items.createIndex({ sku: 1 });
    for (let start = 0; start < docs; start += 1000)
      await items.insertMany(Array.from({ length: 1000 }, (_, k) => doc(start + k)));
    const catalog = new Catalog();
    const local = catalog.getOrCreate('bench', 'items');
    catalog.createIndex(local, { v: 2, key: { sku: 1 }, name: 'sku_1' });
    for (let i = 0; i < docs; i++) catalog.insert(local, local.prepareInsert(doc(i)));
    const processes = { mongo: server.child.pid! };
    const measure = async (rate: number, call: (i: number) => Promise<unknown>) => {
      await pacedCalls(rate, Math.ceil(total / 4), async (i) => (await call(i), true));
      const { result, cpuMs } = await withCpu(processes, () =>
        pacedCalls(rate, total, async (i) => (await call(i), true)),
      );
      const ms = (p: number) => Math.round(percentile(result.latencies, p) * 100) / 100;
      return {
        operations: result.latencies.length,
        cpuMs,
        failures: result.failures,
        latency: { p50_ms: ms(50), p95_ms: ms(95), p99_ms: ms(99) },
      };
    };
    const rows: RowInput[] = [];
    const note = `${docs.toLocaleString('en')} documents; CPU of the server process only (the driver is the load generator)`;
    if (context.wants('mongo-lookup')) {
      context.log(`mongo-lookup: ${total} findOne by an indexed field at 1000/s`);
      rows.push({
        id: 'mongo-lookup',
        title: 'embedded MongoDB `findOne` on an indexed field',
        rate: 1000,
        measured: await measure(1000, (i) => items.findOne({ sku: `SKU-${(i * 7919) % docs}` })),
        baselineTitle: 'in-process engine `find`',
        baseline: inProcess(total, (i) => local.find({ sku: `SKU-${(i * 7919) % docs}` })),
        note,
      });
    }
    if (context.wants('mongo-insert')) {
      context.log(`mongo-insert: ${total} insertOne at 500/s`);
      rows.push({
        id: 'mongo-insert',
        title: 'embedded MongoDB `insertOne` (one index besides `_id`)',
        rate: 500,
        measured: await measure(500, (i) => items.insertOne(doc(docs + i))),
        baselineTitle: 'in-process engine `insert`',
        baseline: inProcess(total, (i) =>
          catalog.insert(local, local.prepareInsert(doc(docs + i))),
        ),
        note,
      });
    }
    return rows;
  } finally {
    await connection.close();
    await stopChild(server.child);
  }
}
