import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { requireBinary } from '@inventory/local-infra';
import { createHealthProbe } from '@inventory/platform';
import { SERVICES, type DevPlan, type ServiceName } from './plan.js';
import type { ProcessSpec } from './supervisor.js';

// DEV_NODE_ARGS adds Node flags to the services and the gateway (e.g. `--inspect` or `--cpu-prof`).
const NODE_ARGS = process.env.DEV_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const TSX = ['--conditions=development', '--import', 'tsx', ...NODE_ARGS];

/**
 * Node's arguments for a package's entry point (`entry` under its src/, without extension): the
 * TypeScript through tsx, or (DEV_RUN=compiled) the JavaScript its build wrote under dist/, whose
 * `@inventory/*` imports resolve to the other packages' dist/ too.
 */
function entryArgs(plan: DevPlan, repoRoot: string, pkg: string, entry: string): string[] {
  if (plan.run === 'source') return [...TSX, join(repoRoot, pkg, 'src', `${entry}.ts`)];
  const script = join(repoRoot, pkg, 'dist', `${entry}.js`);
  if (!existsSync(script))
    throw new Error(
      `DEV_RUN=compiled runs ${pkg}/dist/${entry}.js, which is missing: npm run build`,
    );
  return [...NODE_ARGS, script];
}

/** A service is ready when its gRPC health check says SERVING, whatever its log level. */
async function grpcServing(address: string): Promise<boolean> {
  const probe = createHealthProbe(address);
  try {
    return await probe.isServing();
  } finally {
    probe.close();
  }
}

export interface InfraUrls {
  mongoUrl: string;
  natsUrl: string;
  redisUrl: string;
  providerUrl: string;
}

export function infraUrls(plan: DevPlan): InfraUrls {
  return {
    mongoUrl: plan.external.mongoUrl ?? `mongodb://127.0.0.1:${plan.mongoPort}`,
    natsUrl: plan.external.natsUrl ?? `nats://127.0.0.1:${plan.natsPort}`,
    redisUrl: plan.external.redisUrl ?? `redis://127.0.0.1:${plan.redisPort}`,
    providerUrl: `http://127.0.0.1:${plan.providerPort}`,
  };
}

/** The infrastructure processes, skipping any part that MONGO_URL, NATS_URL or REDIS_URL replaces. */
export function infraProcesses(plan: DevPlan, repoRoot: string): ProcessSpec[] {
  const specs: ProcessSpec[] = [];
  if (!plan.external.natsUrl) {
    specs.push({
      name: 'nats',
      command: requireBinary('nats-server', 'nats-server'),
      args: [
        '-a',
        '127.0.0.1',
        '-p',
        String(plan.natsPort),
        '-js',
        '-sd',
        join(plan.dataDir, 'nats'),
      ],
      readyPattern: /Server is ready/,
    });
  }
  if (!plan.external.redisUrl) {
    specs.push({
      name: 'redis',
      command: requireBinary('redis-server', 'redis-server'),
      args: [
        '--port',
        String(plan.redisPort),
        '--bind',
        '127.0.0.1',
        '--dir',
        join(plan.dataDir, 'redis'),
        '--appendonly',
        'yes',
      ],
      readyPattern: /Ready to accept connections/,
    });
  }
  if (!plan.external.mongoUrl) {
    specs.push({
      name: 'mongo',
      command: process.execPath,
      args: [
        ...entryArgs(plan, repoRoot, 'libs/mongo-embedded', 'cli/main'),
        '--port',
        String(plan.mongoPort),
        '--dbpath',
        join(plan.dataDir, 'mongo'),
      ],
      readyPattern: /mongo-embedded ready/,
    });
  }
  specs.push({
    name: 'provider-sim',
    command: process.execPath,
    args: [
      ...TSX,
      join(repoRoot, 'tools/provider-sim/src/cli/main.ts'),
      '--port',
      String(plan.providerPort),
      '--key',
      plan.providerApiKey,
    ],
    readyPattern: /provider-sim ready/,
  });
  return specs;
}

/** Variables each service needs beyond the common ones. */
function serviceSpecificEnv(name: ServiceName, plan: DevPlan, urls: InfraUrls): NodeJS.ProcessEnv {
  switch (name) {
    case 'parcel-tracking':
      return {
        PROVIDER_BASE_URL: urls.providerUrl,
        WEBHOOK_INGEST_GRPC_ADDRESS: `127.0.0.1:${plan.grpcPorts['webhook-ingest']}`,
      };
    case 'outbound-delivery':
      // So a person can point a subscription at a receiver on this machine (http://127.0.0.1:…);
      // production keeps both off (https only, public addresses only).
      return {
        WEBHOOK_ALLOW_HTTP: process.env.WEBHOOK_ALLOW_HTTP ?? 'true',
        WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK ?? 'true',
      };
    case 'webhook-ingest':
      return { PARCEL_TRACKING_GRPC_ADDRESS: `127.0.0.1:${plan.grpcPorts['parcel-tracking']}` };
    default:
      return {};
  }
}

export function serviceProcesses(plan: DevPlan, repoRoot: string, urls: InfraUrls): ProcessSpec[] {
  return SERVICES.map((name) => ({
    name,
    command: process.execPath,
    args: entryArgs(plan, repoRoot, `services/${name}`, 'main'),
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      MONGO_URL: urls.mongoUrl,
      MONGO_DB: name.replace(/-/g, '_'),
      NATS_URL: urls.natsUrl,
      REDIS_URL: urls.redisUrl,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(plan.grpcPorts[name]),
      METRICS_PORT: String(plan.metricsPorts[name]),
      ...serviceSpecificEnv(name, plan, urls),
    },
    readyCheck: () => grpcServing(`127.0.0.1:${plan.grpcPorts[name]}`),
  }));
}

export function gatewayProcess(plan: DevPlan, repoRoot: string, urls: InfraUrls): ProcessSpec {
  const address = (name: ServiceName) => `127.0.0.1:${plan.grpcPorts[name]}`;
  return {
    name: 'gateway',
    command: process.execPath,
    args: entryArgs(plan, repoRoot, 'gateway', 'main'),
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      HTTP_HOST: process.env.HTTP_HOST ?? '127.0.0.1',
      HTTP_PORT: String(plan.gatewayPort),
      METRICS_PORT: String(plan.gatewayMetricsPort),
      BASE_DOMAIN: plan.baseDomain,
      PUBLIC_SCHEME: 'http',
      PUBLIC_PORT: String(plan.gatewayPort),
      SESSION_COOKIE_SECURE: 'false',
      // Node's fetch, Python and Postman do not resolve *.localhost: 127.0.0.1 reaches the dev tenant.
      DEV_LOOPBACK_TENANT: plan.tenantSlug,
      REDIS_URL: urls.redisUrl,
      NATS_URL: urls.natsUrl,
      IDENTITY_GRPC_ADDRESS: address('identity'),
      PARCEL_TRACKING_GRPC_ADDRESS: address('parcel-tracking'),
      WEBHOOK_INGEST_GRPC_ADDRESS: address('webhook-ingest'),
      OUTBOUND_DELIVERY_GRPC_ADDRESS: address('outbound-delivery'),
      ACTIVITY_GRPC_ADDRESS: address('activity'),
      CATALOG_GRPC_ADDRESS: address('catalog'),
    },
    readyCheck: async () =>
      (await fetch(`http://127.0.0.1:${plan.gatewayPort}/healthz`).catch(() => undefined))
        ?.status === 200,
  };
}
