#!/usr/bin/env node
/**
 * Runs the provider simulator:
 *   npx tsx --conditions=development tools/provider-sim/src/cli/main.ts --port 4010 --key dev_provider_key_123456
 */
import { startProviderSim } from '../server.js';
import { USAGE, parseCliArgs } from './args.js';

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    console.error(USAGE);
    process.exit(2);
  }
  if (parsed.help) {
    console.log(USAGE);
    return;
  }
  const { options } = parsed;
  const sim = await startProviderSim(options);
  const keys = (options.keys ?? []).map((k) => k.key).join(', ');
  console.log(
    `provider-sim ready at ${sim.url} (track API ${sim.url}/track/v2.2, admin ${sim.url}/__sim, keys: ${keys})`,
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`provider-sim: ${signal} received, stopping`);
    sim.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('provider-sim: error while stopping', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('provider-sim failed to start:', err);
  process.exit(1);
});
