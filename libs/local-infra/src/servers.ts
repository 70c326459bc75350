import { mkdirSync } from 'node:fs';
import { requireBinary } from './binaries.js';
import { spawnUntilReady, type ManagedProcess } from './child-process.js';
import { freePort } from './ports.js';

export interface LocalServer extends ManagedProcess {
  url: string;
  port: number;
}

export interface LocalServerOptions {
  port?: number;
  dataDir: string;
  onLine?: (line: string) => void;
}

/** nats-server with JetStream, its store under `dataDir`. */
export async function startNatsServer(options: LocalServerOptions): Promise<LocalServer> {
  const port = options.port || (await freePort());
  mkdirSync(options.dataDir, { recursive: true });
  const server = await spawnUntilReady({
    command: requireBinary('nats-server', 'nats-server'),
    args: ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', options.dataDir],
    readyPattern: /Server is ready/,
    onLine: options.onLine,
  });
  return { ...server, port, url: `nats://127.0.0.1:${port}` };
}

/** redis-server on loopback; persistence only when asked (the dev launcher keeps an AOF). */
export async function startRedisServer(
  options: LocalServerOptions & { persist?: boolean },
): Promise<LocalServer> {
  const port = options.port || (await freePort());
  mkdirSync(options.dataDir, { recursive: true });
  const persistence = options.persist
    ? ['--appendonly', 'yes']
    : ['--save', '', '--appendonly', 'no'];
  const server = await spawnUntilReady({
    command: requireBinary('redis-server', 'redis-server'),
    args: ['--port', String(port), '--bind', '127.0.0.1', '--dir', options.dataDir, ...persistence],
    readyPattern: /Ready to accept connections/,
    onLine: options.onLine,
  });
  return { ...server, port, url: `redis://127.0.0.1:${port}` };
}
