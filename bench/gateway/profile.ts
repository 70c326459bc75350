/**
 * A CPU profile of the gateway under a paced load, to find where its hooks spend:
 *
 *   npx tsx --conditions=development bench/gateway/profile.ts [--path /healthz] [--rate 1000]
 *     [--total 5000] [--port-base 25000] [--part gateway|identity|parcel-tracking|mongo]
 *     [--trackings 100000]
 *
 * `--trackings N` connects an instance and seeds N tracking rows first (as the table's trackings
 * rows do); `{instance}` in `--path` is replaced by its id, e.g.
 * `--path '/api/integrations/parcel-tracking/instances/{instance}/trackings?per_page=1'`.
 *
 * The system runs as `npm start` runs it, the gateway profiling itself (`cpu-profile-preload.mjs`,
 * loaded through NODE_OPTIONS, which refuses `--cpu-prof`; the profile is written when the gateway
 * exits; it profiles from the SIGUSR2 sent after the warm-up). The heaviest functions by self time are printed, and the profile's path, which Chrome
 * DevTools or speedscope open. Profiling slows every process, so its shares are what to read,
 * never its times.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openLoop } from '../lib/paced.js';
import { connectParcelInstance } from '../lib/parcel-instance.js';
import { seedTrackings } from '../parcel-trackings/seed.js';
import { launchSystem } from '../lib/system.js';
import { summariseProfile, type CpuProfile } from './profile-summary.js';

const { values } = parseArgs({
  options: {
    path: { type: 'string', default: '/healthz' },
    rate: { type: 'string', default: '1000' },
    total: { type: 'string', default: '5000' },
    top: { type: 'string', default: '40' },
    'port-base': { type: 'string', default: '25000' },
    // Which process profiles itself: the gateway, identity (the request log's consumer),
    // parcel-tracking or mongo.
    part: { type: 'string', default: 'gateway' },
    trackings: { type: 'string', default: '0' },
  },
});
const MAINS: Record<string, string> = {
  gateway: 'gateway',
  identity: 'services/identity',
  'parcel-tracking': 'services/parcel-tracking',
  mongo: 'libs/mongo-embedded',
};
const part = values.part!;
if (!MAINS[part]) throw new Error(`--part is one of ${Object.keys(MAINS).join(', ')}`);
const preload = fileURLToPath(new URL('./cpu-profile-preload.mjs', import.meta.url));
const profileDir = mkdtempSync(join(tmpdir(), 'gateway-profile-'));
const system = await launchSystem(Number(values['port-base']), {
  RATE_LIMIT_PER_MINUTE: '1000000000',
  TRACKING_WORKER_INTERVAL_MS: '0',
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`,
  BENCH_CPU_PROFILE_DIR: profileDir,
  BENCH_CPU_PROFILE_MAIN: MAINS[part],
  BENCH_CPU_PROFILE_NAME: part,
});
let profiledPid: number | undefined;
try {
  const headers = {
    host: system.dev.host,
    authorization: `Bearer ${system.dev.token}`,
    accept: 'application/json',
  };
  let path = values.path!;
  const trackings = Number(values.trackings);
  if (trackings > 0) {
    const { id: instanceId } = await connectParcelInstance(
      system.gatewayUrl,
      headers,
      system.dev.provider_api_key,
      'Profile',
    );
    await seedTrackings(system.dev.mongo_url, system.dev.tenant_id, instanceId, trackings);
    path = path.replace('{instance}', String(instanceId));
  }
  const options = {
    url: `${system.gatewayUrl}${path}`,
    headers,
    ratePerSecond: Number(values.rate),
  };
  profiledPid = system.processes()[part];
  await openLoop({ ...options, total: 500 });
  process.kill(profiledPid!, 'SIGUSR2');
  const result = await openLoop({ ...options, total: Number(values.total) });
  process.stderr.write(`${JSON.stringify(result)}\n`);
} finally {
  await system.stop();
}
const files = readdirSync(profileDir).filter(
  (name) => name === `${part}.${profiledPid}.cpuprofile`,
);
if (files.length === 0) throw new Error(`no ${part} profile (pid ${profiledPid}) in ${profileDir}`);
for (const file of files) {
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
  process.stdout.write(
    `${join(profileDir, file)}\n${summariseProfile(profile, Number(values.top))}\n`,
  );
}
