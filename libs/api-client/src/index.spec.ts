import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from './index.js';

describe('createApiClient', () => {
  const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((request, response) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data: { id: 7, email: 'ann@acme.test' } }));
  });
  let baseUrl: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('sends the token as a bearer credential and fills path parameters', async () => {
    const api = createApiClient({ baseUrl, token: '12|secret' });
    const { data } = await api.GET('/api/user');
    expect(data?.data).toEqual({ id: 7, email: 'ann@acme.test' });
    await api.DELETE('/api/personal-access-tokens/{id}', { params: { path: { id: '12' } } });
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'GET /api/user',
      'DELETE /api/personal-access-tokens/12',
    ]);
    expect(seen[0]!.headers.authorization).toBe('Bearer 12|secret');
    expect(seen[0]!.headers.accept).toBe('application/json');
  });

  it('types paths and parameters from the document (checked by tsc, never sent)', () => {
    const api = createApiClient({ baseUrl });
    const misuses = () => [
      // @ts-expect-error -- not a path of the API
      api.GET('/api/no-such-path'),
      // @ts-expect-error -- the path parameter is required
      api.DELETE('/api/personal-access-tokens/{id}', {}),
    ];
    expect(misuses).toBeTypeOf('function');
  });
});
