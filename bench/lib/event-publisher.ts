import { spawn } from 'node:child_process';
import { cpuMs } from './proc.js';
import { repoRoot } from './system.js';

/** What `bench/outbound-delivery/publisher.ts` reports once every ack is in. */
export interface Published {
  published: number;
  elapsedMs: number;
  cpuMs: number;
}

/**
 * A publisher of `count` `catalog.product.created` events (delivered as `product.created`) for
 * `tenantId` (`publisher.ts`), its own
 * process as another area would be, connected and waiting: `go()` starts it and resolves to its
 * report once every ack is in. `window` publishes await their acks at once.
 */
export async function startPublisher(
  natsUrl: string,
  tenantId: string,
  count: number,
  window = 64,
) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions=development',
      `${repoRoot}bench/outbound-delivery/publisher.ts`,
      natsUrl,
      tenantId,
      String(count),
      String(window),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'], cwd: repoRoot },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<Published>((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(out)),
    ),
  );
  await new Promise<void>((resolve, reject) => {
    const ready = () => (out.includes('ready\n') ? resolve() : undefined);
    child.stdout.on('data', ready);
    exited.catch(reject);
  });
  return {
    /** Its CPU so far (start-up, connecting): gone from the process tree once it exits. */
    startupCpuMs: () => cpuMs(child.pid!),
    go() {
      child.stdin.end('go\n');
      return exited;
    },
  };
}
