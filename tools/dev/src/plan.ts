import { resolve } from 'node:path';

/** Where every part of the local system listens; all derived from a few variables. */
export interface DevPlan {
  dataDir: string;
  gatewayPort: number;
  /** The gateway's Prometheus `/metrics` (never on gatewayPort). */
  gatewayMetricsPort: number;
  mongoPort: number;
  natsPort: number;
  redisPort: number;
  providerPort: number;
  grpcPorts: Record<ServiceName, number>;
  metricsPorts: Record<ServiceName, number>;
  external: { mongoUrl?: string; natsUrl?: string; redisUrl?: string };
  baseDomain: string;
  tenantSlug: string;
  providerApiKey: string;
  devEmail: string;
  devPassword: string;
  /**
   * How the services, the gateway and the embedded MongoDB run: from their TypeScript sources
   * through tsx (`source`, the default: an edit shows at the next start), or the JavaScript each
   * package's build wrote to `dist/`, with plain `node`, as the production images run it
   * (`compiled`; the benchmarks measure that path).
   */
  run: 'source' | 'compiled';
}

export const SERVICES = [
  'identity',
  'parcel-tracking',
  'webhook-ingest',
  'outbound-delivery',
  'activity',
  'catalog',
] as const;
export type ServiceName = (typeof SERVICES)[number];

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    throw new Error(`${name} must be a port number, got "${raw}"`);
  return value;
}

export function planFromEnv(env: NodeJS.ProcessEnv, repoRoot: string): DevPlan {
  // DEV_PORT_BASE moves every internal port at once (tests run a second copy beside a developer's).
  const base = intFrom(env, 'DEV_PORT_BASE', 17000);
  const portFor = (offset: number) => base + offset;
  const grpcPorts = Object.fromEntries(
    SERVICES.map((name, index) => [name, portFor(501 + index)]),
  ) as Record<ServiceName, number>;
  const metricsPorts = Object.fromEntries(
    SERVICES.map((name, index) => [name, portFor(601 + index)]),
  ) as Record<ServiceName, number>;
  return {
    dataDir: resolve(repoRoot, env.DEV_DATA_DIR ?? '.data'),
    gatewayPort: intFrom(env, 'DEV_GATEWAY_PORT', 8080),
    gatewayMetricsPort: portFor(600),
    mongoPort: portFor(17),
    natsPort: portFor(222),
    redisPort: portFor(379),
    providerPort: portFor(410),
    grpcPorts,
    metricsPorts,
    external: {
      mongoUrl: env.MONGO_URL || undefined,
      natsUrl: env.NATS_URL || undefined,
      redisUrl: env.REDIS_URL || undefined,
    },
    baseDomain: env.BASE_DOMAIN ?? 'inventory.localhost',
    tenantSlug: env.DEV_TENANT_SLUG ?? 'dev',
    providerApiKey: env.DEV_PROVIDER_API_KEY ?? 'dev_provider_key_123456',
    // A local development account only; never used outside `npm start`.
    devEmail: env.DEV_EMAIL ?? 'owner@dev.inventory.localhost',
    devPassword: env.DEV_PASSWORD ?? 'dev-password-change-me',
    run: runFrom(env),
  };
}

function runFrom(env: NodeJS.ProcessEnv): DevPlan['run'] {
  const run = env.DEV_RUN || 'source';
  if (run !== 'source' && run !== 'compiled')
    throw new Error(`DEV_RUN must be source or compiled, got "${run}"`);
  return run;
}
