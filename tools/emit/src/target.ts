import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { IdentityServiceClient } from '@inventory/contracts/identity/v1/identity.js';
import { createGrpcClient } from '@inventory/platform';
import { UsageError } from './args.js';

/** The parts of `<DEV_DATA_DIR or .data>/dev.json` (written by `npm start`) the command reads. */
interface DevFile {
  nats_url?: string;
  host?: string;
  tenant_id?: string;
  tenant_slug?: string;
  base_domain?: string;
  identity_grpc_address?: string;
}

export interface Target {
  natsUrl: string;
  tenantId: string;
}

function readDevFile(path: string): DevFile {
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as DevFile;
  } catch {
    throw new UsageError(`${path} is not valid JSON`);
  }
}

/**
 * Where to publish and for which tenant: NATS from NATS_URL or dev.json; the
 * development tenant by default, another by slug through identity's
 * ResolveTenant (the address from dev.json or IDENTITY_GRPC_ADDRESS).
 */
export async function resolveTarget(
  tenantSlug: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<Target> {
  // The same variable `npm start` and `npm run admin` read, so a second copy of the system
  // (another DEV_DATA_DIR) is never published into by mistake.
  const devPath = resolve(cwd, env.DEV_DATA_DIR || '.data', 'dev.json');
  const dev = readDevFile(devPath);
  const natsUrl = env.NATS_URL ?? dev.nats_url;
  if (!natsUrl)
    throw new UsageError(
      `no NATS address: start the system (npm start writes ${devPath}) or set NATS_URL`,
    );
  if (tenantSlug === undefined || tenantSlug === dev.tenant_slug) {
    if (!dev.tenant_id)
      throw new UsageError(
        `no development tenant in ${devPath}: start the system with npm start, or pass --tenant <slug>`,
      );
    return { natsUrl, tenantId: dev.tenant_id };
  }
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(tenantSlug))
    throw new UsageError(`invalid tenant slug "${tenantSlug}"`);
  const address = env.IDENTITY_GRPC_ADDRESS ?? dev.identity_grpc_address;
  if (!address)
    throw new UsageError(
      'cannot resolve a tenant slug: no identity address in dev.json or IDENTITY_GRPC_ADDRESS',
    );
  const baseDomain = env.BASE_DOMAIN ?? dev.base_domain ?? 'inventory.localhost';
  const client = createGrpcClient(IdentityServiceClient, address, { deadlineMs: 5_000 });
  try {
    const { tenant } = await client.call.resolveTenant({ host: `${tenantSlug}.${baseDomain}` });
    if (!tenant?.id) throw new UsageError(`unknown tenant "${tenantSlug}"`);
    return { natsUrl, tenantId: tenant.id };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as { code?: number }).code === 5)
      throw new UsageError(`unknown tenant "${tenantSlug}"`);
    throw error;
  } finally {
    client.close();
  }
}
