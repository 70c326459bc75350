import type { Span } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { currentContext } from './request-context.js';

export type { Logger } from 'pino';

/**
 * Secrets never reach a log line: these paths are censored wherever they appear
 * in a logged object (headers, bodies, configs, errors).
 */
export const REDACTED_PATHS = [
  'authorization',
  'api_key',
  'apiKey',
  'token',
  'secret',
  'password',
  'webhook_token',
  'plaintext_token',
  '*.authorization',
  '*.api_key',
  '*.apiKey',
  '*.token',
  '*.secret',
  '*.password',
  '*.webhook_token',
  '*.plaintext_token',
  '*.two_factor_code',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'req.headers["17token"]',
  'headers.authorization',
  'headers.cookie',
  'headers["17token"]',
  'body.api_key',
  'body.password',
  'body.token',
];

export interface LoggerSettings {
  service: string;
  level?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to inspect output. */
  destination?: DestinationStream;
}

export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    name: settings.service,
    level: settings.level ?? 'info',
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    base: { service: settings.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // HTTP frameworks log the request under `req`; its URL can carry a webhook token.
    serializers: { req: serializeRequest },
    // Every line logged inside a request carries its correlation ids.
    mixin() {
      const context = currentContext();
      if (!context) return {};
      return {
        request_id: context.requestId,
        tenant_id: context.tenantId,
        user_id: context.userId,
        token_id: context.tokenId,
        ...traceIds(context.span),
      };
    },
  };
  return settings.destination ? pino(options, settings.destination) : pino(options);
}

/** The ids that find a log line's trace in the tracing backend (W3C hex form). */
function traceIds(span: Span | undefined) {
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

interface LoggableRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** The request as logged: method, URL with secrets masked, host and peer; never headers or body. */
export function serializeRequest(request: LoggableRequest) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? maskSecrets(request.url) : undefined,
    host: request.host,
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Masks token-shaped substrings (`<id>|<secret>`, `wh_...`, `whsec_...`) inside
 * free text such as URLs, where path-based redaction cannot reach.
 */
export function maskSecrets(text: string): string {
  return text
    .replace(/\b(wh_|whsec_)[A-Za-z0-9_-]{6,}/g, '$1[REDACTED]')
    .replace(/\b(\d+)\|[A-Za-z0-9]{20,}/g, '$1|[REDACTED]');
}
