import type { FastifyError, FastifyInstance } from 'fastify';
import { isServiceError } from '@inventory/platform';
import { codeBody, notFoundBody, validationBody } from './envelopes.js';
import { grpcErrorToHttp } from './grpc-to-http.js';
import { HttpError } from './http-error.js';

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

export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(notFoundBody(`The route ${request.url.split('?')[0]} could not be found.`));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body);
    }
    const known = error.code ? FASTIFY_REQUEST_ERRORS[error.code] : undefined;
    if (known) return reply.code(known.status).send(codeBody(known.code, known.message));
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
