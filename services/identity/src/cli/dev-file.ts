import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** What the admin CLI takes from `.data/dev.json` (written by `npm start`). */
export interface DevConnection {
  path: string;
  env: { MONGO_URL: string; NATS_URL?: string; BASE_DOMAIN?: string };
}

/**
 * With MONGO_URL unset, the CLI works on the system `npm start` runs: the launcher writes its
 * MongoDB, NATS and base domain to `<DEV_DATA_DIR or .data>/dev.json` under the repository root
 * (npm runs scripts there). Nothing when the file is missing or carries no `mongo_url`; a file
 * that is not JSON is an error worth naming rather than a silent fallback.
 */
export function readDevConnection(
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): DevConnection | undefined {
  const path = resolve(cwd, env.DEV_DATA_DIR || '.data', 'dev.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${path} is not JSON; set MONGO_URL or restart npm start`);
  }
  const field = (key: string) =>
    typeof parsed[key] === 'string' ? (parsed[key] as string) : undefined;
  const mongoUrl = field('mongo_url');
  if (!mongoUrl) return undefined;
  return {
    path,
    env: { MONGO_URL: mongoUrl, NATS_URL: field('nats_url'), BASE_DOMAIN: field('base_domain') },
  };
}
