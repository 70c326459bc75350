import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import ipaddr from 'ipaddr.js';
import { BoundedMemo } from '@inventory/platform';
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

/** What a receiver URL comes to, worked out once per URL: where to send, or why not. */
type Target =
  { refused: string } | { refused?: undefined; isHttps: boolean; options: http.RequestOptions };

/**
 * Posts one webhook attempt. Redirects are never followed (the 3xx is the answer), the whole
 * attempt is bounded by `timeoutMs`, the response body is read up to the kept size only, and
 * every connection goes through the guarded lookup (plus a literal-address check, since Node
 * does not call `lookup` for IP literals).
 */
export class HttpSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  /**
   * Each receiver URL's parse and literal-address check, by the URL as stored: the same few URLs
   * take every delivery, and parsing one per attempt showed in the profile. Both depend only on
   * the URL and the fixed policy; a name's addresses are still checked at every connection.
   */
  private readonly targets = new BoundedMemo((rawUrl: string) => this.parse(rawUrl));

  constructor(private readonly options: HttpSenderOptions) {
    const lookup = guardedLookup(options.policy, options.resolve);
    this.httpAgent = new http.Agent({ keepAlive: true, lookup, maxSockets: 64 });
    this.httpsAgent = new https.Agent({ keepAlive: true, lookup, maxSockets: 64 });
  }

  async send(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = this.targets.get(rawUrl);
    if (target.refused !== undefined) return { error: target.refused, durationMs: elapsed() };
    const { isHttps } = target;
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...outcome, durationMs: elapsed() });
      };
      // A fresh options object: `request` copies it, and the cached one must stay as it is.
      const request = (isHttps ? https : http).request({
        ...target.options,
        method: 'POST',
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
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
      // The body as a string: Node writes it with the head in one chunk, with no Buffer copy.
      request.end(body);
    });
  }

  private parse(rawUrl: string): Target {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { refused: 'invalid url' };
    }
    const host = hostOf(url);
    if (ipaddr.isValid(host)) {
      const refused = refusedAddress(host, this.options.policy);
      if (refused) return { refused: `refused: ${host} ${refused}` };
    }
    const isHttps = url.protocol === 'https:';
    if (!isHttps && !(url.protocol === 'http:' && this.options.policy.allowHttp))
      return { refused: `refused: scheme ${url.protocol}` };
    return { isHttps, options: urlToHttpOptions(url) };
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
