import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startProviderSim } from '../src/index.js';
import type { ProviderSimHandle, ProviderSimOptions } from '../src/index.js';

export const KEY = 'test_key_aaaaaaaa';
export const OTHER_KEY = 'test_key_bbbbbbbb';

/** A simulator with two keys and a rate limit high enough not to get in the way. */
export function startSim(options: ProviderSimOptions = {}): Promise<ProviderSimHandle> {
  return startProviderSim({
    keys: [{ key: KEY }, { key: OTHER_KEY }],
    rateLimitPerSecond: 1000,
    webhookRetryDelayMs: 10,
    ...options,
  });
}

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** POST to the track API. `body` is serialised unless it is already a string. */
export async function call(
  sim: ProviderSimHandle,
  endpoint: string,
  body: unknown,
  key: string | null = KEY,
  contentType = 'application/json',
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (key !== null) headers['17token'] = key;
  const res = await fetch(`${sim.url}/track/v2.2/${endpoint}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/** Calls an admin endpoint. */
export async function admin(
  sim: ProviderSimHandle,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<ApiAnswer> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const res = await fetch(`${sim.url}/__sim${path}`, init);
  return { status: res.status, json: await res.json() };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver answering with `statuses` in turn (the last one repeats). */
export async function startReceiver(statuses: number[] = [200]) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/17track`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const items = (...numbers: string[]) => numbers.map((number) => ({ number }));
