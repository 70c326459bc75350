import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * RFC 6761: `*.localhost` names are loopback. Tenants' webhook URLs in
 * `npm start` are `http://<slug>.inventory.localhost:8080/...`, which curl and
 * browsers resolve but the system resolver here may not; the Host header
 * (the tenant) is kept as written.
 */
export function loopbackForLocalhost(
  hostname: string,
  options: LookupOptions,
  callback: LookupCallback,
): void {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  dnsLookup(
    hostname,
    options,
    callback as (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family: number,
    ) => void,
  );
}

/** POSTs a body and resolves with the status (the answer body is read and dropped). */
export function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<number> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: loopbackForLocalhost as never,
        timeout: timeoutMs,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
