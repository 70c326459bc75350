import { mkdirSync } from 'node:fs';
import { seedDevelopment } from '@inventory/identity';
import { seedSalesChannels } from '@inventory/parcel-tracking';
import { join } from 'node:path';
import { writeDevFile } from './dev-file.js';
import { planFromEnv } from './plan.js';
import { pointSimulatorAtWebhookUrl } from './provider-webhooks.js';
import { waitForReady } from './readiness.js';
import { Supervisor } from './supervisor.js';
import { gatewayProcess, infraProcesses, infraUrls, serviceProcesses } from './system-processes.js';

export interface LaunchOptions {
  repoRoot: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Starts infrastructure, the provider simulator, every service and the gateway
 * as separate processes; waits for a green /readyz; writes .data/dev.json; and
 * stops everything on Ctrl-C (or SIGTERM).
 */
export async function launch({ repoRoot, env }: LaunchOptions): Promise<void> {
  const plan = planFromEnv(env, repoRoot);
  for (const dir of ['nats', 'redis', 'mongo'])
    mkdirSync(join(plan.dataDir, dir), { recursive: true });
  const urls = infraUrls(plan);

  let shuttingDown = false;
  const supervisor = new Supervisor(process.stdout, (name, code) => {
    supervisor.log('dev', `${name} exited unexpectedly (code ${code}); stopping everything`);
    void shutdown(1);
  });
  const shutdown = async (exitCode: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    supervisor.log('dev', 'stopping...');
    await supervisor.stopAll();
    supervisor.log('dev', 'stopped');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    for (const spec of infraProcesses(plan, repoRoot)) await supervisor.start(spec);
    await Promise.all(serviceProcesses(plan, repoRoot, urls).map((spec) => supervisor.start(spec)));
    await supervisor.start(gatewayProcess(plan, repoRoot, urls));
    const gatewayUrl = `http://127.0.0.1:${plan.gatewayPort}`;
    let lastWaiting = '';
    await waitForReady(gatewayUrl, 60_000, (detail) => {
      if (detail !== lastWaiting) supervisor.log('dev', detail);
      lastWaiting = detail;
    });

    // Idempotent: a restart keeps the tenant and user, and issues a fresh token.
    const seeded = await seedDevelopment({
      mongoUrl: urls.mongoUrl,
      dbName: 'identity',
      slug: plan.tenantSlug,
      email: plan.devEmail,
      password: plan.devPassword,
      baseDomain: plan.baseDomain,
      publicScheme: 'http',
      publicPort: plan.gatewayPort,
    });
    const channels = await seedSalesChannels({ natsUrl: urls.natsUrl, tenantId: seeded.tenant.id });
    supervisor.log(
      'dev',
      `seeded ${channels.length} sales channels for the trackable-channels endpoint`,
    );
    await pointSimulatorAtWebhookUrl({
      natsUrl: urls.natsUrl,
      parcelTrackingAddress: `127.0.0.1:${plan.grpcPorts['parcel-tracking']}`,
      tenantId: seeded.tenant.id,
      baseUrl: seeded.base_url,
      providerUrl: urls.providerUrl,
      providerApiKey: plan.providerApiKey,
      log: (line) => supervisor.log('dev', line),
    });
    const host = seeded.host;
    const devFile = writeDevFile(plan.dataDir, {
      base_url: seeded.base_url,
      gateway_url: gatewayUrl,
      host,
      mongo_url: urls.mongoUrl,
      nats_url: urls.natsUrl,
      redis_url: urls.redisUrl,
      provider_url: urls.providerUrl,
      provider_api_key: plan.providerApiKey,
      email: seeded.email,
      password: seeded.password,
      token: seeded.token,
    });
    supervisor.log(
      'dev',
      `tenant ${host}: owner ${seeded.email} / ${seeded.password}; token ${seeded.token}`,
    );
    supervisor.log(
      'dev',
      `ready: gateway at ${gatewayUrl} (tenant ${host}); details in ${devFile}. Ctrl-C stops everything.`,
    );
  } catch (error) {
    supervisor.log('dev', `start-up failed: ${(error as Error).message}`);
    await shutdown(1);
  }
}
