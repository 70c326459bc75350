import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `.data/dev.json`: everything a person or a script needs to talk to the local system. */
export interface DevFile {
  base_url: string;
  gateway_url: string;
  host: string;
  mongo_url: string;
  nats_url: string;
  redis_url: string;
  provider_url: string;
  provider_api_key: string;
  email?: string;
  password?: string;
  token?: string;
  /** The development tenant, and how `npm run emit -- --tenant <slug>` resolves others. */
  tenant_id?: string;
  tenant_slug?: string;
  base_domain?: string;
  identity_grpc_address?: string;
}

export function writeDevFile(dataDir: string, content: DevFile): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'dev.json');
  writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  return path;
}
