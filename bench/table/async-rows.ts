import type { ChildProcess } from 'node:child_process';
import mongoose from 'mongoose';
import { connectNats } from '@inventory/platform';
import { startPublisher } from '../lib/event-publisher.js';
import { callJson } from '../lib/http.js';
import { pushWebhooks } from '../lib/provider-webhook.js';
import { cpuMs } from '../lib/proc.js';
import { BASELINE_CONSUMER } from '../lib/delivery-baseline-consumer.js';
import { startSignedReceiver } from '../lib/signed-receiver.js';
import { streamsSettled } from '../lib/streams-settled.js';
import { startNodeScript, stopChild } from '../lib/system.js';
import { count, type BenchContext } from './context.js';
import { pooled, withCpu } from './measure.js';
import type { Measured, RowInput } from './report.js';

const poll = async (done: () => Promise<boolean>, capMs: number) => {
  const deadline = Date.now() + capMs;
  while (!(await done())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
};

/** Resolves with the first line of `child`'s output matching `pattern` from now on. */
const lineOf = (child: ChildProcess, pattern: RegExp) =>
  new Promise<string>((resolve) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (!match) return;
      child.stdout!.off('data', onData);
      resolve(match[0]);
    };
    child.stdout!.on('data', onData);
  });

/** A line to a baseline driven by stdin, answered by a line matching `answer`. */
const command = (child: ChildProcess, line: string, answer: RegExp) => {
  const answered = lineOf(child, answer);
  child.stdin!.write(`${line}\n`);
  return answered;
};

export const WEBHOOK_CONNECTIONS = [20, 100] as const;

/**
 * Signed provider webhooks at 20 and at 100 connections (issue #48), as fast as each side answers,
 * against the fair baseline (`../lib/webhook-baseline.ts`: a bare Fastify POST that checks `sign`,
 * inserts the same row into the same MongoDB and answers 200). The system's CPU runs from the first
 * push until webhook-ingest has no row of them left to process, summed over every process; the
 * baseline's is its process and the MongoDB it writes to. Failures: any push not answered 2xx, any
 * acknowledged webhook without exactly one row (lost or doubled), a backlog left undrained.
 */
export async function webhookRows(
  context: BenchContext,
  instance: { id: number; webhookPath: string },
): Promise<RowInput[]> {
  const { dev, gatewayUrl } = context.system;
  const total = count(context, 5000, 1500);
  const baseline = await startNodeScript(
    ['bench/lib/webhook-baseline.ts'],
    {
      MONGO_URL: dev.mongo_url,
      API_KEY: dev.provider_api_key,
      TENANT_ID: dev.tenant_id,
      INSTANCE_ID: String(instance.id),
    },
    /WEBHOOK-BASELINE (\d+)/,
  );
  const mongo = await mongoose
    .createConnection(dev.mongo_url, { dbName: 'webhook_ingest' })
    .asPromise();
  const nats = await connectNats(dev.nats_url, 'bench-table-webhooks');
  const manager = await nats.jetstreamManager();
  const rows: RowInput[] = [];
  try {
    const events = mongo.collection('webhook_events');
    const baselineEvents = mongo.collection('baseline_webhook_events');
    const baselineProcesses = () => ({
      baseline: baseline.child.pid!,
      mongo: context.system.processes().mongo!,
    });
    const push = (url: string, prefix: string, amount: number, connections: number) =>
      pushWebhooks({
        url,
        host: dev.host,
        apiKey: dev.provider_api_key,
        prefix,
        amount,
        connections,
      });
    const systemUrl = `${gatewayUrl}${instance.webhookPath}`;
    const baselineUrl = `http://127.0.0.1:${baseline.match[1]}${instance.webhookPath}`;
    const numbered = (prefix: string) => ({ tracking_number: { $regex: `^${prefix}` } });
    const drained = (prefix: string) => () =>
      events.countDocuments({ ...numbered(prefix), state: 'received' }).then((left) => left === 0);
    /** Acknowledged pushes that did not end as exactly one row, each counted once. */
    const unmatched = async (collection: typeof events, prefix: string, acknowledged: number) => {
      const stored = await collection.countDocuments(numbered(prefix));
      const distinct = (await collection.distinct('tracking_number', numbered(prefix))).length;
      return Math.abs(distinct - acknowledged) + (stored - distinct);
    };
    for (const connections of WEBHOOK_CONNECTIONS) {
      const id = `webhooks-${connections}`;
      if (!context.wants(id)) continue;
      context.log(`${id}: ${total} pushes over ${connections} connections, each side`);
      await push(baselineUrl, `WB${connections}-`, Math.ceil(total / 2), connections);
      await push(systemUrl, `WS${connections}-`, Math.ceil(total / 2), connections);
      await poll(drained(`WS${connections}-`), 120_000);
      await streamsSettled(manager);
      const baselines: Measured[] = [];
      const measurements: Measured[] = [];
      for (let pair = 0; pair < context.repeat; pair++) {
        const prefix = `B${connections}p${pair}-`;
        const bare = await withCpu(baselineProcesses(), () =>
          push(baselineUrl, prefix, total, connections),
        );
        baselines.push({
          operations: bare.result['2xx'],
          cpuMs: bare.cpuMs,
          failures:
            bare.result.non2xx +
            bare.result.errors +
            (await unmatched(baselineEvents, prefix, bare.result['2xx'])),
        });
        const tag = `S${connections}p${pair}-`;
        const { result, cpuMs } = await withCpu(context.system.processes(), async () => {
          const pushed = await push(systemUrl, tag, total, connections);
          // Processed, and every event the processing published consumed: the whole cost.
          const finished = (await poll(drained(tag), 300_000)) && (await streamsSettled(manager));
          return { pushed, finished };
        });
        const acknowledged = result.pushed['2xx'];
        measurements.push({
          operations: acknowledged,
          cpuMs,
          failures:
            result.pushed.non2xx +
            result.pushed.errors +
            (await unmatched(events, tag, acknowledged)) +
            (result.finished ? 0 : 1),
        });
      }
      rows.push({
        id,
        title: `provider webhook, ${connections} connections, acknowledged and processed`,
        rate: 0,
        measured: pooled(measurements),
        baseline: pooled(baselines),
        baselineTitle: 'bare Fastify POST: `sign` checked, row inserted',
        target: { cpuRatio: 2.5 },
        note: 'CPU from the first push until every row has its result; failures count non-2xx, lost and doubled',
      });
    }
  } finally {
    await mongo.close();
    await nats.drain();
    await stopChild(baseline.child);
  }
  return rows;
}

/** The baseline's own tenant: the system has no subscription for it, so it delivers none of these. */
const BASELINE_TENANT = 'bench-delivery-baseline';
/** outbound-delivery's consumer of `catalog.product.created`, stopped for the backlog row. */
const FAN_OUT_DURABLE = 'outbound-delivery-product-created';

/**
 * Signed outbound deliveries of `product.created` (issue #48), live and from a backlog, against
 * the fair baseline (`../lib/delivery-baseline.ts`: one process that consumes the same events from
 * the same stream, signs them the same way, POSTs them to the same receiver and inserts the same
 * row). The receiver verifies every delivery's signature and counts distinct delivery ids; the
 * events are published by a publisher process of their own, which neither side's sum counts.
 *
 * - live: the clock runs from the first publish until the last delivery arrived;
 * - from a backlog: the events are published first (outbound-delivery stopped with SIGSTOP; the
 *   baseline's consumer not pulling), then the clock runs from the resume to the last delivery.
 *
 * The system's sum is every process; the baseline's is its process, nats-server and the MongoDB.
 */
export async function outboundRows(context: BenchContext): Promise<RowInput[]> {
  const { dev, gatewayUrl } = context.system;
  const total = count(context, 5000, 1500);
  let secret = '';
  const receiver = await startSignedReceiver(() => secret);
  const nats = await connectNats(dev.nats_url, 'bench-table');
  const manager = await nats.jetstreamManager();
  const rows: RowInput[] = [];
  let baseline: Awaited<ReturnType<typeof startNodeScript>> | undefined;
  try {
    const created = await callJson(gatewayUrl, 'POST', '/api/webhook-subscriptions', context.auth, {
      url: `${receiver.url}/hook`,
      events: ['product.created'],
    });
    if (created.status !== 201)
      throw new Error(`subscribing: ${created.status} ${JSON.stringify(created.body)}`);
    const subscription = (created.body as { data: { id: number; secret: string } }).data;
    secret = subscription.secret;
    baseline = await startNodeScript(
      ['bench/lib/delivery-baseline.ts'],
      {
        NATS_URL: dev.nats_url,
        MONGO_URL: dev.mongo_url,
        SECRET: secret,
        RECEIVER_URL: `${receiver.url}/baseline`,
        SUBSCRIPTION_ID: String(subscription.id),
      },
      /DELIVERY-BASELINE ready/,
    );
    const bare = baseline.child;
    const baselineProcesses = () => {
      const { nats: natsPid, mongo } = context.system.processes();
      return { baseline: bare.pid!, nats: natsPid!, mongo: mongo! };
    };
    const service = () => context.system.processes()['outbound-delivery']!;
    /** Every event consumed by every consumer: the fan-out's, and catalog's read model's. */
    const eventsSettled = () => streamsSettled(manager);
    /**
     * The system's processes that deliver. catalog's read model consumes the same events for
     * its own purpose, the baseline's as much as the system's: it is in neither sum, and its
     * cost per event is shown beside the row.
     */
    const delivering = () => {
      const { catalog: _readModel, ...processes } = context.system.processes();
      return processes;
    };
    const catalogCpu = { ms: 0, events: 0 };
    /** A system side, with catalog's CPU for its events read from its first publish until settled. */
    const withCatalogShare =
      (side: (amount: number) => Promise<Measured>) =>
      async (amount: number): Promise<Measured> => {
        const catalog = context.system.processes().catalog!;
        const before = cpuMs(catalog);
        const measured = await side(amount);
        await eventsSettled();
        catalogCpu.ms += cpuMs(catalog) - before;
        catalogCpu.events += amount;
        return measured;
      };
    const verified = (path: string) => receiver.received(path).verified.size;
    /** Deliveries not verified exactly once at the receiver since `before`. */
    const misses = (path: string, before: ReturnType<typeof snapshot>) => {
      const now = snapshot(path);
      return (
        Math.abs(total - (now.verified - before.verified)) +
        (now.bad - before.bad) +
        (now.repeated - before.repeated)
      );
    };
    const snapshot = (path: string) => {
      const seen = receiver.received(path);
      return { verified: seen.verified.size, bad: seen.badSignatures, repeated: seen.repeated };
    };

    const systemLive = withCatalogShare(async (amount: number): Promise<Measured> => {
      const before = snapshot('/hook');
      const publisher = await startPublisher(dev.nats_url, dev.tenant_id, amount);
      const { result, cpuMs: spent } = await withCpu(delivering(), async () => {
        await publisher.go();
        return poll(async () => verified('/hook') - before.verified >= amount, 300_000);
      });
      return {
        operations: verified('/hook') - before.verified,
        cpuMs: spent,
        failures: (result ? 0 : 1) + misses('/hook', before),
      };
    });
    const systemBacklog = withCatalogShare(async (amount: number): Promise<Measured> => {
      const before = snapshot('/hook');
      const publisher = await startPublisher(dev.nats_url, dev.tenant_id, amount);
      const pid = service();
      process.kill(pid, 'SIGSTOP');
      try {
        await publisher.go();
      } catch (error) {
        process.kill(pid, 'SIGCONT');
        throw error;
      }
      // catalog's read model consumed these events as they were published: let it finish first.
      await streamsSettled(manager, { except: [FAN_OUT_DURABLE] });
      const { result, cpuMs: spent } = await withCpu(delivering(), async () => {
        process.kill(pid, 'SIGCONT');
        return poll(async () => verified('/hook') - before.verified >= amount, 300_000);
      });
      return {
        operations: verified('/hook') - before.verified,
        cpuMs: spent,
        failures: (result ? 0 : 1) + misses('/hook', before),
      };
    });
    const baselineLive = async (amount: number): Promise<Measured> => {
      const before = snapshot('/baseline');
      await command(bare, 'open', /opened/);
      const publisher = await startPublisher(dev.nats_url, BASELINE_TENANT, amount);
      const { cpuMs } = await withCpu(baselineProcesses(), async () => {
        const drained = command(bare, `drain ${amount}`, /drained \d+/);
        await publisher.go();
        await drained;
      });
      await command(bare, 'close', /closed/);
      await eventsSettled();
      return {
        operations: verified('/baseline') - before.verified,
        cpuMs,
        failures: misses('/baseline', before),
      };
    };
    const baselineBacklog = async (amount: number): Promise<Measured> => {
      const before = snapshot('/baseline');
      await command(bare, 'open', /opened/);
      await (await startPublisher(dev.nats_url, BASELINE_TENANT, amount)).go();
      // The system's fan-out consumer also takes these events (for a tenant it has no
      // subscription of), and catalog's read model: let them finish before the baseline's clock.
      await streamsSettled(manager, { except: [BASELINE_CONSUMER] });
      const { cpuMs } = await withCpu(baselineProcesses(), () =>
        command(bare, `drain ${amount}`, /drained \d+/),
      );
      await command(bare, 'close', /closed/);
      return {
        operations: verified('/baseline') - before.verified,
        cpuMs,
        failures: misses('/baseline', before),
      };
    };

    context.log(`outbound: ${total} deliveries per measurement, live and from a backlog`);
    const warm = Math.ceil(total / 2);
    const warmSystem = snapshot('/hook').verified + warm;
    await (await startPublisher(dev.nats_url, dev.tenant_id, warm)).go();
    await poll(async () => verified('/hook') >= warmSystem, 120_000);
    await command(bare, 'open', /opened/);
    const warmBaseline = command(bare, `drain ${warm}`, /drained \d+/);
    await (await startPublisher(dev.nats_url, BASELINE_TENANT, warm)).go();
    await warmBaseline;
    await command(bare, 'close', /closed/);
    await eventsSettled();

    const sides = {
      'outbound-live': { system: systemLive, baseline: baselineLive, how: 'live' },
      'outbound-backlog': {
        system: systemBacklog,
        baseline: baselineBacklog,
        how: 'from a backlog',
      },
    } as const;
    for (const [id, side] of Object.entries(sides)) {
      if (!context.wants(id)) continue;
      Object.assign(catalogCpu, { ms: 0, events: 0 });
      const baselines: Measured[] = [];
      const measurements: Measured[] = [];
      for (let pair = 0; pair < context.repeat; pair++) {
        baselines.push(await side.baseline(total));
        measurements.push(await side.system(total));
      }
      rows.push({
        id,
        title: `signed outbound delivery (\`product.created\`), ${side.how}`,
        rate: 0,
        measured: pooled(measurements),
        baseline: pooled(baselines),
        baselineTitle: 'one process: consume, sign, POST, insert the row',
        target: { cpuRatio: 2 },
        note: `every delivery verified at the receiver (signature, one per id); the publisher is counted on neither side, nor catalog's read model, which applies every product event for itself (${Math.round((catalogCpu.ms * 1000) / Math.max(1, catalogCpu.events))} µs per event)`,
      });
    }
  } finally {
    if (baseline) await stopChild(baseline.child);
    await nats.drain();
    receiver.close();
  }
  return rows;
}
