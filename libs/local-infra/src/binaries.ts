import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Debian installs some servers to sbin, which is not on every user's PATH. */
const EXTRA_DIRS = ['/usr/sbin', '/usr/local/sbin', '/usr/local/bin', '/usr/bin', '/sbin'];

export function findBinary(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...EXTRA_DIRS];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function requireBinary(name: string, debianPackage: string): string {
  const path = findBinary(name);
  if (!path) {
    throw new Error(`${name} was not found. Install it with: apt-get install -y ${debianPackage}`);
  }
  return path;
}
