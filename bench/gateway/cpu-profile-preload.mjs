// Preloaded (NODE_OPTIONS=--import) by profile.ts and bench/webhooks/run.ts: `--cpu-prof` is
// refused in NODE_OPTIONS, so each profiled process (every part whose package folder is listed,
// comma-separated, in BENCH_CPU_PROFILE_MAIN, e.g. `gateway,services/identity`) profiles itself
// through the inspector, from SIGUSR2 (sent after the warm-up, so start-up is left out) until it
// exits, when the profile is written. A part is recognised by its entry point, from the sources
// (`<package>/src/main.ts`) or the build (`<package>/dist/main.js`). Every other Node process of
// the system loads this file and does nothing.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

const dir = process.env.BENCH_CPU_PROFILE_DIR;
const packages = (process.env.BENCH_CPU_PROFILE_MAIN ?? 'gateway').split(',');
const entries = process.argv.map(
  (arg) => /(.*)\/(?:src|dist)\/(?:cli\/)?main\.[jt]s$/.exec(arg)?.[1],
);
const main = packages.find((pkg) => entries.some((entry) => entry?.endsWith(pkg)));
// One part keeps the name it was given; several are told apart by their folder.
const name =
  packages.length === 1
    ? (process.env.BENCH_CPU_PROFILE_NAME ?? 'gateway')
    : main?.split('/').pop();
if (dir && main) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  process.once('SIGUSR2', () => session.post('Profiler.start'));
  process.on('exit', () => {
    // A session on the process's own thread answers synchronously, so this runs before exit.
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(
          join(dir, `${name}.${process.pid}.cpuprofile`),
          JSON.stringify(result.profile),
        );
    });
  });
}
