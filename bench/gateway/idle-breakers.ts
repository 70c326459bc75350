/**
 * CPU of idle circuit breakers in one process: N breakers made 2 ms apart (as a tenant-partitioned
 * gRPC client makes them, one on each tenant's first call), then three 5-second readings of the
 * process's CPU. `own` builds opossum breakers with `createCallBreaker`'s options as they were
 * before session 35 (each rotating its window on a timer of its own); `shared` uses
 * `createCallBreaker` (one rotation timer per process). Read the last, steady reading.
 *
 *   npx tsx --conditions=development bench/gateway/idle-breakers.ts own|shared [200]
 */
import CircuitBreaker from 'opossum';
import { createCallBreaker } from '@inventory/platform';

const mode = process.argv[2];
if (mode !== 'own' && mode !== 'shared') throw new Error('mode: own or shared');
const count = Number(process.argv[3] ?? 200);
const action = async () => 'ok';
const make = () =>
  mode === 'shared'
    ? createCallBreaker(action)
    : new CircuitBreaker(action, {
        timeout: false,
        rollingCountTimeout: 10_000,
        rollingPercentilesEnabled: false,
        enableSnapshots: false,
      });
const breakers: unknown[] = [];
for (let i = 0; i < count; i++) {
  breakers.push(make());
  await new Promise((resolve) => setTimeout(resolve, 2));
}
// Breakers' timers never keep a process alive; this one does, for the readings.
const keepAlive = setInterval(() => undefined, 60_000);
await new Promise((resolve) => setTimeout(resolve, 3_000));
const readings: string[] = [];
for (let i = 0; i < 3; i++) {
  const start = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const used = process.cpuUsage(start);
  readings.push(((used.user + used.system) / 1000 / 5).toFixed(1));
}
process.stdout.write(
  `${mode}: ${breakers.length} idle breakers, ${readings.join(', ')} ms of CPU per second\n`,
);
clearInterval(keepAlive);
