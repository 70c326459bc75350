/**
 * The long version of test-e2e's fault suite (issue #18): the system as `npm start` runs it,
 * a steady paced load, and every fault in turn (freeze and kill of each service, Redis, NATS
 * and the embedded MongoDB), each freeze held 20 s. Prints a table: per fault, the time to the
 * first JSON 503, the longest request, the time to recovery, and the inbound webhooks and
 * outbound events acknowledged during it that were lost or doubled. Loopback only; stops by
 * itself.
 *
 *   npx tsx --conditions=development bench/resilience/faults.ts [--rate 6] [--freeze-ms 20000] [--only "freeze nats,kill mongo"]
 */
import { parseArgs } from 'node:util';
import { ALL_FAULTS, formatFigures, launchSystem, runFaults } from '@inventory/test-e2e';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '6' },
    only: { type: 'string' },
    'freeze-ms': { type: 'string', default: '20000' },
  },
});
const only = values.only?.split(',').map((name) => name.trim());
const faults = only ? ALL_FAULTS.filter((fault) => only.includes(fault.name)) : ALL_FAULTS;

const system = await launchSystem();
try {
  const run = await runFaults(system, faults, {
    ratePerSecond: Number(values.rate),
    capMs: 90_000,
    freezeMs: Number(values['freeze-ms']),
  });
  process.stdout.write(`${formatFigures(run)}\n`);
  if (run.badAnswers.length)
    process.stdout.write(`bad answers:\n  ${run.badAnswers.slice(0, 50).join('\n  ')}\n`);
  const wrong = run.lostWebhooks + run.doubledWebhooks + run.outbound.lost + run.outbound.doubled;
  process.exitCode = wrong === 0 && run.badAnswers.length === 0 ? 0 : 1;
} finally {
  await system.stop();
}
