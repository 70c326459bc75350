/**
 * The long version of test-e2e's fault suite (issue #18): the system as `npm start` runs it,
 * a steady paced load, and every fault in turn (freeze and kill of each service, Redis, NATS
 * and the embedded MongoDB). Prints, per fault, the time to the first JSON 503 and to recovery,
 * and the acknowledged inbound webhooks and scheduled outbound deliveries lost. Loopback only;
 * stops by itself.
 *
 *   npx tsx --conditions=development bench/resilience/faults.ts [--rate 6] [--only "freeze nats,kill mongo"]
 */
import { parseArgs } from 'node:util';
import { ALL_FAULTS, formatFigures, launchSystem, runFaults } from '@inventory/test-e2e';

const { values } = parseArgs({
  options: { rate: { type: 'string', default: '6' }, only: { type: 'string' } },
});
const only = values.only?.split(',').map((name) => name.trim());
const faults = only ? ALL_FAULTS.filter((fault) => only.includes(fault.name)) : ALL_FAULTS;

const system = await launchSystem();
try {
  const run = await runFaults(system, faults, {
    ratePerSecond: Number(values.rate),
    capMs: 90_000,
  });
  process.stdout.write(`${formatFigures(run)}\n`);
  if (run.badAnswers.length)
    process.stdout.write(`bad answers:\n  ${run.badAnswers.slice(0, 50).join('\n  ')}\n`);
  const lost = run.lostWebhooks + run.outbound.lost;
  process.exitCode = lost === 0 && run.badAnswers.length === 0 ? 0 : 1;
} finally {
  await system.stop();
}
