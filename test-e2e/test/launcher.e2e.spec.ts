import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@inventory/local-infra';
import { eventually, waitFor } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { httpCall } from '../src/index.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The launcher's port offsets from DEV_PORT_BASE (tools/dev/src/plan.ts). */
const PORT_OFFSETS = [17, 222, 379, 410, 501, 502, 503, 504, 505, 600, 601, 602, 603, 604, 605];

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A DEV_PORT_BASE whose ports are all free, below Linux's ephemeral range (32768+), where other
 * tests' random ports and client sockets live, and away from the defaults a developer may run.
 */
async function freePortBase(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 110) * 100;
    const free = await Promise.all(PORT_OFFSETS.map((offset) => canListen(base + offset)));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no free DEV_PORT_BASE between 20000 and 31000');
}

/** The process ids under `root` (only the launcher's own tree, never anyone else's processes). */
function descendants(root: number): Array<{ pid: number; args: string }> {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]! }));
  const found: Array<{ pid: number; args: string }> = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const row of rows.filter((candidate) => candidate.ppid === parent)) {
      found.push({ pid: row.pid, args: row.args });
      queue.push(row.pid);
    }
  }
  return found;
}

describe('npm start', () => {
  it('brings the whole system to a green /readyz, writes dev.json, and stops everything on Ctrl-C', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'inventory-launcher-'));
    const gatewayPort = await freePort();
    const portBase = await freePortBase();
    const child = spawn('bash', ['tools/dev/start.sh'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DEV_DATA_DIR: dataDir,
        DEV_GATEWAY_PORT: String(gatewayPort),
        DEV_PORT_BASE: String(portBase),
        LOG_LEVEL: 'warn',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      let stillStarting = true;
      await Promise.race([
        waitFor(() => output.includes('[dev] ready:'), {
          what: 'the launcher ready',
          timeoutMs: 150_000,
          everyMs: 200,
        }).catch((error: Error) => {
          throw new Error(`${error.message}\n${output.slice(-3000)}`);
        }),
        exited.then((code) => {
          if (stillStarting)
            throw new Error(`launcher exited with ${code}:\n${output.slice(-3000)}`);
        }),
      ]);
      stillStarting = false;

      const readyz = await fetch(`http://127.0.0.1:${gatewayPort}/readyz`);
      expect(readyz.status).toBe(200);
      const devFile = JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')) as Record<
        string,
        string
      >;
      expect(devFile).toMatchObject({
        gateway_url: `http://127.0.0.1:${gatewayPort}`,
        host: 'dev.inventory.localhost',
        base_url: `http://dev.inventory.localhost:${gatewayPort}`,
        provider_url: `http://127.0.0.1:${portBase + 410}`,
      });
      for (const key of [
        'mongo_url',
        'nats_url',
        'redis_url',
        'provider_api_key',
        'email',
        'password',
      ])
        expect(devFile[key], key).toMatch(/^\S+$/);
      expect(devFile.token).toMatch(/^\d+\|[A-Za-z0-9]{40,}$/);
      // Issue #18 item 11: the output says where the credentials are, never the secrets.
      const [tokenId, tokenSecret] = devFile.token!.split('|');
      expect(output).toContain(`(id ${tokenId}) are in ${join(dataDir, 'dev.json')}`);
      expect(output).not.toContain(tokenSecret);
      expect(output).not.toContain(devFile.password);

      // The seeded token works on the seeded tenant's host, as a person would use it.
      const me = await httpCall(devFile.gateway_url!, 'GET', '/api/user', {
        host: devFile.host,
        headers: { authorization: `Bearer ${devFile.token}` },
      });
      expect(me.status).toBe(200);
      expect(JSON.stringify(me.body)).toContain(devFile.email);

      // Issue #17: `npm start` builds and serves the web app under /app, and prints its address.
      const webApp = await httpCall(devFile.gateway_url!, 'GET', '/app/', { host: devFile.host });
      expect(webApp.status).toBe(200);
      expect(webApp.text).toContain('<div id="root">');
      expect(output).toContain(`web app: ${devFile.base_url}/app`);

      // A person connects the parcel-tracking integration with the simulator's development key.
      const auth = { authorization: `Bearer ${devFile.token}` };
      const created = await httpCall(
        devFile.gateway_url!,
        'POST',
        '/api/integrations/parcel-tracking/instances',
        {
          host: devFile.host,
          headers: auth,
          body: { name: 'Parcels', api_key: devFile.provider_api_key },
        },
      );
      expect(created.status).toBe(201);
      const instance = (created.body as { data: { id: number; webhook_url: string } }).data;
      expect(
        instance.webhook_url.startsWith(`${devFile.base_url}/webhooks/parcel-tracking/wh_`),
      ).toBe(true);
      // The seeded channels arrive as events; the read model catches up within moments.
      await eventually(async () => {
        const channels = await httpCall(
          devFile.gateway_url!,
          'GET',
          `/api/integrations/parcel-tracking/instances/${instance.id}/trackable-channels`,
          {
            host: devFile.host,
            headers: auth,
          },
        );
        expect(channels.status).toBe(200);
        expect((channels.body as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(3);
      }, 'the seeded channels');
      // The seeded products and purchase invoices arrive as events too (services/catalog).
      for (const [path, seeded] of [
        ['/api/v2/products', 5],
        ['/api/purchase-invoices', 4],
      ] as const) {
        await eventually(async () => {
          const listing = await httpCall(devFile.gateway_url!, 'GET', path, {
            host: devFile.host,
            headers: auth,
          });
          expect(listing.status).toBe(200);
          expect((listing.body as { total: number }).total).toBe(seeded);
        }, `the seeded ${path}`);
      }

      // Issue #18 item 7: a part that dies is restarted; the launcher and the others keep serving.
      const activity = descendants(child.pid!).find((row) =>
        row.args.includes('services/activity/src/main.ts'),
      );
      expect(activity).toBeDefined();
      process.kill(activity!.pid, 'SIGKILL');
      await waitFor(() => output.includes('[dev] activity restarted'), {
        what: 'activity restarted',
        timeoutMs: 60_000,
      });
      expect(output).toMatch(
        /\[dev\] activity exited unexpectedly \(signal SIGKILL\); restarting in/,
      );
      expect(output).toContain('[dev] activity restarted (restart 1)');
      expect(child.exitCode).toBeNull();
      await eventually(
        async () => {
          const ready = await fetch(`http://127.0.0.1:${gatewayPort}/readyz`);
          expect(((await ready.json()) as { status: string }).status).toBe('ready');
        },
        { what: 'the system ready again', timeoutMs: 60_000 },
      );
      const meAgain = await httpCall(devFile.gateway_url!, 'GET', '/api/user', {
        host: devFile.host,
        headers: auth,
      });
      expect(meAgain.status).toBe(200);

      // The simulator pushes to the instance's real webhook_url: the launcher points the
      // development key at it on connect, and the push lands in the webhook log (issue 13).
      await waitFor(() => output.includes('now pushes webhooks to'), 'the webhook target set');
      const number = '1Z999AA10123456784';
      const json = { 'content-type': 'application/json' };
      const registered = await fetch(`${devFile.provider_url}/track/v2.2/register`, {
        method: 'POST',
        headers: { ...json, '17token': devFile.provider_api_key! },
        body: JSON.stringify([{ number }]),
      });
      expect(registered.status).toBe(200);
      const advanced = await fetch(`${devFile.provider_url}/__sim/trackings/${number}/advance`, {
        method: 'POST',
        headers: json,
        body: '{}',
      });
      expect(advanced.status).toBe(200);
      const rows = await eventually(
        async () => {
          const log = await httpCall(
            devFile.gateway_url!,
            'GET',
            `/api/integrations/parcel-tracking/instances/${instance.id}/webhooks?filter[tracking_number]=${number}`,
            { host: devFile.host, headers: auth },
          );
          expect(log.status).toBe(200);
          const data = (log.body as { data: Array<Record<string, unknown>> }).data;
          expect(data.length).toBeGreaterThan(0);
          return data;
        },
        { what: 'the pushed webhook in the log', timeoutMs: 60_000 },
      );
      expect(rows[0]).toMatchObject({ event_type: 'TRACKING_UPDATED', tracking_number: number });

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(output).toContain('[dev] stopped');
      await expect(fetch(`http://127.0.0.1:${gatewayPort}/healthz`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 200_000);
});
