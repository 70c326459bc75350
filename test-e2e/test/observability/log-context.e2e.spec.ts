import { Agent, request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import type { GatewayHandle } from '@inventory/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  startSecondGateway,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

interface LogLine {
  msg: string;
  reqId?: string;
  request_id?: string;
  tenant_id?: string;
  user_id?: string;
}

// Every log line of a request carries that request's ids, or none: never the ids of the request
// before it on the same kept-alive connection.
describe('log lines of requests on one kept-alive connection', () => {
  let system: RunningSystem;
  let gateway: GatewayHandle;
  const lines: LogLine[] = [];
  let a: TenantFixture;
  let b: TenantFixture;

  beforeAll(async () => {
    system = await startSystem();
    const capture = new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n').filter(Boolean))
          lines.push(JSON.parse(text) as LogLine);
        done();
      },
    });
    gateway = await startSecondGateway(system, { LOG_LEVEL: 'info' }, { logDestination: capture });
    a = await createTenantWithToken(system, { gatewayUrl: gateway.url });
    b = await createTenantWithToken(system, { gatewayUrl: gateway.url });
  });
  afterAll(async () => {
    await gateway?.stop();
    await system?.stop();
  });

  it('carry each request’s own request, tenant and user ids', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const send = (fixture: TenantFixture, id: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(path, gateway.url);
        const req = httpRequest(
          {
            agent,
            hostname: url.hostname,
            port: url.port,
            path: url.pathname,
            headers: {
              host: fixture.host,
              authorization: `Bearer ${fixture.token}`,
              'x-request-id': id,
            },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        );
        req.on('socket', (socket) => sockets.add(socket));
        req.on('error', reject);
        req.end();
      });
    const sent = [
      [a, 'keepalive-a-1', '/api/user'],
      [b, 'keepalive-b-1', '/api/user'],
      [a, 'keepalive-a-2', '/api/does-not-exist'],
      [b, 'keepalive-b-2', '/api/user'],
    ] as const;
    for (const [fixture, id, path] of sent) await send(fixture, id, path);
    agent.destroy();
    expect(sockets.size).toBe(1);

    for (const [fixture, id] of sent) {
      const own = lines.filter((line) => line.reqId === id || line.request_id === id);
      expect(own.map((line) => line.msg)).toEqual(
        expect.arrayContaining(['incoming request', 'request completed']),
      );
      for (const line of own) {
        expect(line.request_id ?? id, `${id}: ${line.msg}`).toBe(id);
        expect(line.reqId ?? id, `${id}: ${line.msg}`).toBe(id);
        if (line.tenant_id !== undefined)
          expect(line.tenant_id, `${id}: ${line.msg}`).toBe(fixture.tenant.id);
        if (line.user_id !== undefined)
          expect(line.user_id, `${id}: ${line.msg}`).toBe(String(fixture.user.id));
      }
    }
  });
});
