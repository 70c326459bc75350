import { startTestInfra, type TestInfra, waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../bootstrap.js';
import { connect } from 'node:net';
import { parseRawResponse, rawExchange, type RawResponse } from './raw-http.test-util.js';
import { startLoneGateway } from './test-gateway.test-util.js';

/**
 * Requests that Node's parser, Fastify's router or the shutdown path refuse before any route
 * runs, sent byte for byte over real sockets to a listening gateway (inject cannot express
 * them). Every answer must be JSON in the specification's envelope family.
 */
describe('gateway error envelopes for hostile and malformed requests', () => {
  let infra: TestInfra;
  let gateway: GatewayHandle;
  let port: number;
  let hostileSent = 0;
  let serverErrors = 0;

  const send = async (request: string | Buffer) => {
    hostileSent++;
    const [response] = await rawExchange(port, request);
    if (!response) throw new Error('no response');
    if (response.status >= 500) serverErrors++;
    return response;
  };
  const expectEnvelope = (response: RawResponse, status: number, code?: string) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json).toMatchObject({ message: expect.stringMatching(/\S/) });
    if (code) expect(response.json!.code).toBe(code);
    // None of Fastify's own shape.
    expect(response.json).not.toHaveProperty('statusCode');
  };

  beforeAll(async () => {
    infra = await startTestInfra({ mongo: false });
    gateway = await startLoneGateway(infra);
    port = Number(new URL(gateway.url).port);
  });
  afterAll(async () => {
    await gateway?.stop();
    await infra?.stop();
    // The figure: hostile requests sent and 5xx seen (target 0).
    process.stdout.write(
      `error-envelopes: hostile requests sent ${hostileSent}, 5xx seen ${serverErrors}\n`,
    );
  });

  it('431 in the envelope for an oversized header, query or token', async () => {
    const big = 'a'.repeat(20_000);
    for (const request of [
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`,
      `GET /api/alerts?q=${big} HTTP/1.1\r\nHost: acme.inventory.localhost\r\n\r\n`,
      `GET /api/user HTTP/1.1\r\nHost: acme.inventory.localhost\r\nAuthorization: Bearer 1|${big}\r\n\r\n`,
    ])
      expectEnvelope(await send(request), 431, 'request_header_fields_too_large');
  });

  it('400 in the envelope for what the HTTP parser refuses', async () => {
    for (const request of [
      // NUL inside a header value.
      Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Test: a\u0000b\r\n\r\n', 'latin1'),
      `POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`,
      `POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      `GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Name: y\r\n\r\n`,
      `NOTAMETHOD /healthz HTTP/1.1\r\nHost: x\r\n\r\n`,
    ])
      expectEnvelope(await send(request), 400, 'malformed_request');
  });

  it('400 in the envelope (not an empty body) for an HTTP/1.1 request without Host', async () => {
    const response = await send('GET /healthz HTTP/1.1\r\n\r\n');
    expectEnvelope(response, 400, 'malformed_request');
    expect(response.json!.message).toBe('The Host header is required.');
  });

  it('400 in the envelope for two Host headers, whatever their case: the tenant would be ambiguous', async () => {
    for (const request of [
      'GET /api/user HTTP/1.1\r\nHost: a.inventory.localhost\r\nHost: b.inventory.localhost\r\n\r\n',
      'GET /api/user HTTP/1.1\r\nHost: a.inventory.localhost\r\nhost: a.inventory.localhost\r\n\r\n',
    ]) {
      const response = await send(request);
      expectEnvelope(response, 400, 'malformed_request');
      expect(response.json!.message).toBe('Only one Host header is allowed.');
    }
  });

  it('404 envelope, without the path echoed, for a webhook token over the router limit', async () => {
    const token = `wh_${'x'.repeat(5_000)}`;
    const response = await send(
      `POST /webhooks/parcel-tracking/${token} HTTP/1.1\r\nHost: acme.inventory.localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    );
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({
      status: 'failure',
      errors: { url: [{ code: 'NotFound' }] },
    });
    expect(response.text).not.toContain('xxxxxxxxxx');
  });

  it('400 envelope for a malformed percent-encoding in a path parameter', async () => {
    expectEnvelope(
      await send(
        'POST /webhooks/parcel-tracking/%zz HTTP/1.1\r\nHost: acme.inventory.localhost\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      ),
      400,
      'malformed_request',
    );
  });

  it('an unknown long path is a 404 whose message echoes only its start', async () => {
    const response = await send(
      `GET /${'p'.repeat(5_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(response.status).toBe(404);
    expect(String(response.json!.message).length).toBeLessThan(300);
  });
});

describe('gateway 503 while shutting down', () => {
  let infra: TestInfra;

  beforeAll(async () => {
    infra = await startTestInfra({ mongo: false });
  });
  afterAll(async () => {
    await infra?.stop();
  });

  it('answers a request pipelined behind an in-flight one with the 503 envelope, not Fastify’s', async () => {
    let entered!: () => void;
    const slowEntered = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const logLines: string[] = [];
    const gateway = await startLoneGateway(
      infra,
      { LOG_LEVEL: 'info' },
      {
        logDestination: { write: (line: string) => void logLines.push(line) },
        extraRoutes: {
          access: { 'GET /test/slow': { access: 'public', tenantless: true } },
          plugin: async (app) => {
            app.get('/test/slow', async () => {
              entered();
              await released;
              return { slow: true };
            });
          },
        },
      },
    );
    const port = Number(new URL(gateway.url).port);
    // Node hands pipelined requests to the app at once, so the second request is written only
    // once the drain has begun, on the connection the in-flight request keeps open.
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /test/slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await slowEntered;
    const stopped = gateway.stop();
    await waitFor(() => !gateway.app.server.listening, 'the listener closed');
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    // The first request ends only once the second has been refused (its log line says so).
    await waitFor(
      () => logLines.some((line) => line.includes('shutting down')),
      'the refusal logged',
    );
    release();
    await closed;
    await stopped;
    const first = parseRawResponse(received);
    const second = parseRawResponse(first.rest);
    expect(first!.status).toBe(200);
    expect(second!.status).toBe(503);
    expect(second!.headers['content-type']).toMatch(/^application\/json/);
    expect(second!.json).toEqual({
      message: 'The server is shutting down. Try again shortly.',
      code: 'shutting_down',
    });
    expect(second!.headers['retry-after']).toBe('1');
  });
});
