import { mkdirSync } from 'node:fs';
import { seedDevelopment } from '@inventory/identity/dev';
import { seedSalesChannels } from '@inventory/parcel-tracking/dev';
import { seedCatalog } from '@inventory/catalog/dev';
import { join } from 'node:path';
import { credentialsNotice } from './credentials-notice.js';
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
 * as separate processes; waits for a green /readyz; writes .data/dev.json;
 * restarts a part that dies; and stops everything on Ctrl-C (or SIGTERM) or a crash loop.
 */
export async function launch({ repoRoot, env }: LaunchOptions): Promise<void> {
  const plan = planFromEnv(env, repoRoot);
  for (const dir of ['nats', 'redis', 'mongo'])
    mkdirSync(join(plan.dataDir, dir), { recursive: true });
  const urls = infraUrls(plan);

  let shuttingDown = false;
  // A part that dies is restarted with back-off while the rest keep serving; only a crash
  // loop (or Ctrl-C) stops everything.
  const supervisor = new Supervisor(process.stdout, {
    onCrashLoop: (name) => {
      supervisor.log('dev', `${name} keeps crashing; stopping everything`);
      void shutdown(1);
    },
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
    const catalog = await seedCatalog({ natsUrl: urls.natsUrl, tenantId: seeded.tenant.id });
    supervisor.log(
      'dev',
      `seeded ${catalog.products.length} products and ${catalog.invoices.length} purchase invoices`,
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
      tenant_id: seeded.tenant.id,
      tenant_slug: plan.tenantSlug,
      base_domain: plan.baseDomain,
      identity_grpc_address: `127.0.0.1:${plan.grpcPorts.identity}`,
    });
    supervisor.log(
      'dev',
      credentialsNotice({ host, email: seeded.email, token: seeded.token, devFilePath: devFile }),
    );
    supervisor.log(
      'dev',
      `ready: gateway at ${gatewayUrl} (tenant ${host}); details in ${devFile}. Ctrl-C stops everything.`,
    );
    supervisor.log('dev', `web app: ${seeded.base_url}/app (sign in as ${seeded.email})`);
  } catch (error) {
    supervisor.log('dev', `start-up failed: ${(error as Error).message}`);
    await shutdown(1);
  }
}
