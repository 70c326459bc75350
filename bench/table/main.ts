/**
 * `npm run bench`: every benchmark row in one run, one table (see ../README.md).
 *
 *   npm run bench -- [--quick] [--only healthz,api-user] [--port-base 24000] [--repeat 3]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchSystem, repoRoot, startNodeScript, stopChild } from '../lib/system.js';
import { outboundRows, webhookRows } from './async-rows.js';
import type { BenchContext } from './context.js';
import { createInstance, gatewayRows, parcelRows } from './gateway-rows.js';
import { pacedMeasure, saturation, settleUntilIdle, warmUntilSteady } from './measure.js';
import { mongoRows } from './mongo-rows.js';
import { buildRow, markdownTable, type Measured, type RowInput } from './report.js';

export const ROW_IDS = [
  'healthz',
  'api-user',
  'api-user-500',
  'instance',
  'trackings-page',
  'trackings-count',
  'instance-100k',
  'webhooks-20',
  'webhooks-100',
  'outbound-live',
  'outbound-backlog',
  'mongo-lookup',
  'mongo-insert',
] as const;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    'port-base': { type: 'string', default: '24000' },
    repeat: { type: 'string', default: '1' },
  },
});
const only = values.only?.split(',').map((id) => id.trim());
const unknown = only?.filter((id) => !(ROW_IDS as readonly string[]).includes(id));
if (unknown?.length)
  throw new Error(`unknown rows ${unknown.join(', ')}; rows: ${ROW_IDS.join(', ')}`);
const wants = (id: string) => !only || only.includes(id);
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const started = new Date();
const quick = values.quick;

const bare = await startNodeScript(['bench/lib/bare-server.ts'], {}, /BARE (\d+)/);
const bareUrl = `http://127.0.0.1:${bare.match[1]}/`;
const bareProcess = { bare: bare.child.pid! };
const bareRuns = new Map<string, Measured>();
const warmed = new Set<string>();
const inputs: RowInput[] = [];
let idleCpuMsPerSecond: Record<string, number> | undefined;
try {
  const systemRows = ROW_IDS.filter((id) => !id.startsWith('mongo-')).filter(wants);
  if (systemRows.length > 0) {
    log('starting the system (npm start, every part its own process)');
    const system = await launchSystem(Number(values['port-base']), {
      RATE_LIMIT_PER_MINUTE: '1000000000',
      WEBHOOK_RATE_PER_MINUTE: '1000000',
      // The tracking workers' sweeps would share the two cores with the measured requests.
      TRACKING_WORKER_INTERVAL_MS: '0',
    });
    try {
      const context: BenchContext = {
        quick,
        wants,
        system,
        auth: {
          host: system.dev.host,
          authorization: `Bearer ${system.dev.token}`,
          accept: 'application/json',
        },
        async bare(options, post = false, fresh = false) {
          const key = `${post}:${options.ratePerSecond}:${options.total}`;
          const cached = options.build || fresh ? undefined : bareRuns.get(key);
          if (cached) return cached;
          const load = {
            url: bareUrl,
            // The same request as the measured GET rows: their headers too, which Node parses.
            headers: post ? {} : context.auth,
            ratePerSecond: options.ratePerSecond,
            build: options.build,
          };
          await context.warm(bareProcess, load, post);
          const measured = await pacedMeasure(bareProcess, { ...load, total: options.total! });
          if (!options.build) bareRuns.set(key, measured);
          return measured;
        },
        bareSaturation: async () => saturation(bareUrl, context.auth, context.saturationSeconds),
        async warm(processes, options, post = false) {
          const key = `${post ? 'POST' : 'GET'} ${options.url} ${options.ratePerSecond}`;
          if (warmed.has(key)) return;
          warmed.add(key);
          const { usPerOp, steady } = await warmUntilSteady(processes, {
            ...options,
            windowSeconds: quick ? 2 : 5,
            maxWindows: quick ? 4 : 8,
          });
          log(
            `warm-up ${key.replace(/^(\w+) http:\/\/[^/]+/, '$1 ')}: ${usPerOp.join(' → ')} µs/request${steady ? ' (steady)' : ' (still moving; measured anyway)'}`,
          );
        },
        saturationSeconds: quick ? 3 : 5,
        repeat: Math.max(1, Number(values.repeat)),
        log,
      };
      // Just after start the parts still compile, connect and seed, which is not the background
      // a row pays for: no row starts before the idle system is steady. Ten-second windows, since
      // /proc counts each process's CPU in 10 ms ticks.
      const idle = await settleUntilIdle(system.processes, {
        windowSeconds: quick ? 5 : 10,
        minWindows: quick ? 2 : 5,
        maxWindows: quick ? 3 : 8,
      });
      log(
        `idle system: ${idle.msPerSecond.join(' → ')} ms of CPU per second${idle.steady ? ' (steady)' : ' (still moving; measured anyway)'}`,
      );
      idleCpuMsPerSecond = idle.last;
      inputs.push(...(await gatewayRows(context)));
      // The asynchronous rows before the 100,000 tracking rows are seeded. Measured after them,
      // MongoDB cost 191–358 µs per delivery to the system and up to 245 to the baseline,
      // against 55–77 on either side without them; the likely cause is the embedded MongoDB's
      // journal compaction, which writes every collection out, landing in a row.
      if (systemRows.some((id) => id.startsWith('outbound')))
        inputs.push(...(await outboundRows(context)));
      if (
        systemRows.some(
          (id) => id !== 'healthz' && !id.startsWith('api-user') && !id.startsWith('outbound'),
        )
      ) {
        const instance = await createInstance(context);
        inputs.push(...(await webhookRows(context, instance)));
        inputs.push(...(await parcelRows(context, instance.id)));
      }
    } finally {
      await system.stop();
    }
  }
  if (wants('mongo-lookup') || wants('mongo-insert'))
    inputs.push(...(await mongoRows({ quick, wants, log })));
} finally {
  await stopChild(bare.child);
}

const rows = inputs.map((input) => buildRow({ ...input, idleCpuMsPerSecond }));
const table = markdownTable(rows);
const report = {
  started: started.toISOString(),
  seconds: Math.round((Date.now() - started.getTime()) / 1000),
  machine: {
    cpus: cpus().length,
    node: process.version,
    loadavg_at_end: loadavg().map((l) => Math.round(l * 10) / 10),
  },
  quick,
  idle_cpu_ms_per_s: idleCpuMsPerSecond,
  rows,
};
const dir = join(repoRoot, 'bench/results');
mkdirSync(dir, { recursive: true });
const stamp = started.toISOString().replace(/[:.]/g, '-');
const markdown = `# Bench table, ${report.started}\n\n${report.seconds} s, ${report.machine.cpus} CPUs, Node ${report.machine.node}, load average at the end ${report.machine.loadavg_at_end.join(' ')}${quick ? ', --quick' : ''}\n\n${table}\n`;
for (const name of [stamp, 'latest']) {
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(dir, `${name}.md`), markdown);
}
process.stdout.write(`${table}\n\nwritten to bench/results/${stamp}.{json,md}\n`);
