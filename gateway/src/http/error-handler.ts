import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isServiceError } from '@inventory/platform';
import {
  codeBody,
  headersTooLargeBody,
  malformedRequestBody,
  notFoundBody,
  shuttingDownBody,
  validationBody,
} from './envelopes.js';
import { grpcErrorToHttp } from './grpc-to-http.js';
import { HttpError } from './http-error.js';
import { lingerOnClose } from './lingering-close.js';

/** Fastify's own request errors, answered in the specification's shapes instead of its defaults. */
const FASTIFY_REQUEST_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'The request body must be JSON (Content-Type: application/json).',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'The request body is too large.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'malformed_json',
    message: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'malformed_json',
    message: 'The request body is empty but Content-Type is JSON.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'invalid_content_length',
    message: 'Content-Length does not match the body.',
  },
};

/** Unknown paths are echoed in the 404 message, cut short so a huge path is not sent back whole. */
const MAX_ECHOED_PATH = 200;

function echoedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
}

function rawJsonResponse(status: number, reason: string, body: unknown): string {
  const text = JSON.stringify(body);
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
  );
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers over the size
 * limit, NUL or other bad bytes in a header, a bad Content-Length, Content-Length together
 * with Transfer-Encoding, ...). Fastify's default writes its own `{error, statusCode}` body;
 * this answers in the specification's `{message, code}` family instead.
 */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    if (error.code === 'HPE_HEADER_OVERFLOW')
      socket.write(rawJsonResponse(431, 'Request Header Fields Too Large', headersTooLargeBody()));
    else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      socket.write(
        rawJsonResponse(
          408,
          'Request Timeout',
          codeBody('request_timeout', 'The request took too long to arrive.'),
        ),
      );
    else socket.write(rawJsonResponse(400, 'Bad Request', malformedRequestBody()));
  }
  socket.destroy(error);
}

/**
 * Errors Fastify's router raises before any route runs. A path parameter over the router's
 * length limit (a very long webhook token) cannot name anything: the 404 envelope, without
 * echoing the path (Fastify's default is a 414 that does). Any other is our fault: a 500, logged
 * as the error handler logs one.
 */
function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.code(404).send(notFoundBody());
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply.code(400).send(malformedRequestBody('The request URL is malformed.'));
    return;
  }
  request.log.error({ err: error }, 'router error before any route ran');
  void reply.code(500).send({ message: 'Server Error' });
}

/**
 * Fastify options that keep every error the server emits in the specification's envelopes:
 * the parser's refusals and the router's, and a request without Host (Node's own check
 * answers an empty 400; the hook below answers it instead). Shutdown's 503 is also ours
 * (`return503OnClosing: false` plus the hook), not Fastify's `{error, statusCode}`.
 */
export const errorEnvelopeServerOptions = {
  clientErrorHandler,
  frameworkErrors,
  return503OnClosing: false,
  http: { requireHostHeader: false },
} as const;

function hostHeaderCount(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host') count++;
  return count;
}

export function registerErrorHandling(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style: synchronous checks, so no promise per request (see metrics.ts).
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      // Requests already on a kept-alive or pipelined connection while the server drains.
      void reply.header('connection', 'close');
      request.log.info('request refused: shutting down');
      return done(new HttpError(503, shuttingDownBody(), { 'retry-after': '1' }));
    }
    const http11 = request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1;
    if (http11 && !request.headers.host) {
      void reply.header('connection', 'close');
      return done(new HttpError(400, malformedRequestBody('The Host header is required.')));
    }
    // Node keeps the first of several Host headers; a proxy in front may have routed by another,
    // so the request's tenant would be ambiguous (RFC 9112 §3.2: answer 400).
    if (hostHeaderCount(request.raw.rawHeaders) > 1) {
      void reply.header('connection', 'close');
      return done(new HttpError(400, malformedRequestBody('Only one Host header is allowed.')));
    }
    done();
  });

  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(notFoundBody(`The route ${echoedPath(request.url)} could not be found.`));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body);
    }
    const known = error.code ? FASTIFY_REQUEST_ERRORS[error.code] : undefined;
    if (known) {
      // Refused before the body was read: let the client finish sending and read the answer.
      if (!request.raw.complete) lingerOnClose(request.raw.socket);
      return reply.code(known.status).send(codeBody(known.code, known.message));
    }
    if (error instanceof SyntaxError)
      return reply
        .code(400)
        .send(codeBody('malformed_json', 'The request body is not valid JSON.'));
    if (error.validation) {
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field =
          issue.instancePath.replace(/^\//, '').replace(/\//g, '.') ||
          String(issue.params?.missingProperty ?? 'request');
        (errors[field] ??= []).push(issue.message ?? 'is invalid');
      }
      return reply.code(422).send(validationBody(errors));
    }
    if (isServiceError(error)) {
      const mapped = grpcErrorToHttp(error);
      if (mapped) return reply.code(mapped.statusCode).headers(mapped.headers).send(mapped.body);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send(codeBody('bad_request', error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ message: 'Server Error' });
  });
}
