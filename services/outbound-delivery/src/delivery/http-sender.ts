import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import {
  hostOf,
  refusedAddress,
  type ReceiverPolicy,
  type Resolve,
} from '../domain/receiver-url.js';
import { guardedLookup } from './guarded-lookup.js';

export interface SendOutcome {
  responseStatus?: number;
  responseBody?: string;
  error?: string;
  durationMs: number;
}

export interface HttpSenderOptions {
  policy: ReceiverPolicy;
  resolve: Resolve;
  timeoutMs: number;
  responseBodyLimitBytes: number;
}

/**
 * Posts one webhook attempt. Redirects are never followed (the 3xx is the answer), the whole
 * attempt is bounded by `timeoutMs`, the response body is read up to the kept size only, and
 * every connection goes through the guarded lookup (plus a literal-address check, since Node
 * does not call `lookup` for IP literals).
 */
export class HttpSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: HttpSenderOptions) {
    const lookup = guardedLookup(options.policy, options.resolve);
    this.httpAgent = new http.Agent({ keepAlive: true, lookup, maxSockets: 64 });
    this.httpsAgent = new https.Agent({ keepAlive: true, lookup, maxSockets: 64 });
  }

  async send(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { error: 'invalid url', durationMs: elapsed() };
    }
    const host = hostOf(url);
    if (ipaddr.isValid(host)) {
      const refused = refusedAddress(host, this.options.policy);
      if (refused) return { error: `refused: ${host} ${refused}`, durationMs: elapsed() };
    }
    const isHttps = url.protocol === 'https:';
    if (!isHttps && !(url.protocol === 'http:' && this.options.policy.allowHttp))
      return { error: `refused: scheme ${url.protocol}`, durationMs: elapsed() };
    const payload = Buffer.from(body);
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...outcome, durationMs: elapsed() });
      };
      const request = (isHttps ? https : http).request(url, {
        method: 'POST',
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        headers: { ...headers, 'Content-Length': String(payload.length) },
      });
      const timer = setTimeout(() => {
        finish({ error: `timeout after ${this.options.timeoutMs} ms` });
        request.destroy();
      }, this.options.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) =>
        finish({
          error:
            error.code === 'EREFUSEDADDRESS'
              ? `refused: ${error.message}`
              : `${error.code ?? 'error'}: ${error.message}`,
        }),
      );
      request.on('response', (response) => {
        const limit = this.options.responseBodyLimitBytes;
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () =>
          finish({
            responseStatus: response.statusCode,
            responseBody: Buffer.concat(chunks).toString('utf8'),
          });
        response.on('data', (chunk: Buffer) => {
          if (kept >= limit) return;
          const part = chunk.subarray(0, limit - kept);
          chunks.push(part);
          kept += part.length;
          // Enough kept: stop reading a large body instead of downloading it.
          if (kept >= limit) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      });
      request.end(payload);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
