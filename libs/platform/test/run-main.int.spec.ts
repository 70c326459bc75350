import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/run-main-process.ts', import.meta.url));

/** Runs the fixture; `signal` is sent once it prints READY. */
function run(mode: string, signal?: NodeJS.Signals) {
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', fixture, mode],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (signal && stdout.includes('READY\n')) child.kill(signal);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('runMain', () => {
  it('exits 78 naming the bad variable when the configuration is invalid', async () => {
    const result = await run('bad-config');
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('MONGO_URL: is required but missing');
  });

  it('exits 1 with the cause when the start fails otherwise', async () => {
    const result = await run('crash');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot reach the database');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('stops in order on %s and exits 0', async (signal) => {
    const result = await run('serve', signal);
    expect(result.stdout).toContain('STOPPED');
    expect(result.code).toBe(0);
  });
});
