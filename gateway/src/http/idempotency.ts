import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseHookHandler,
  onSendHookHandler,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import type { Logger } from '@inventory/platform';
import { ruleFor, type RouteRule } from '../auth/route-access.js';
import { codeBody, validationBody } from './envelopes.js';
import { HttpError } from './http-error.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  idempotencyEntry,
  keyOwner,
  type IdempotencyEntry,
  readIdempotencyKey,
  REPLAYED_HEADER,
  requestFingerprint,
} from './idempotency-key.js';
import type { IdempotencyStore, StoredAnswer } from './idempotency-store.js';

/**
 * The largest answer kept for a replay. Creating routes answer one record (a few KiB); an answer
 * past this is sent but not kept, and its key released, so a retry runs again (logged).
 */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** The headers of a first answer that describe it, and so are replayed with it. */
const KEPT_HEADERS = ['content-type', 'location'];

const CLAIM = Symbol('idempotencyClaim');

interface HeldClaim {
  entry: IdempotencyEntry;
  lock: string;
}

type ClaimingRequest = FastifyRequest & { [CLAIM]?: HeldClaim };

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /** The route table: routes whose rule says `idempotent` take the header. */
  routeTable: Record<string, RouteRule>;
  logger: Logger;
  maxAnswerBytes?: number;
}

/** The JSON Schema of the header, for the routes that take it (the OpenAPI document shows it). */
export const IDEMPOTENCY_HEADER_SCHEMA = {
  type: 'object',
  properties: {
    'Idempotency-Key': {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$',
      description:
        'A key of your choosing (a UUID, say), unique per operation you mean to perform once, ' +
        'kept 24 hours. Retrying with the same key and the same body answers the first answer ' +
        'again, with `Idempotent-Replayed: true`, and does nothing a second time; the same key ' +
        'with another body is 422 `idempotency_key_reused`; while the first request runs, 409 ' +
        '`idempotency_key_in_use`. A first answer that was a 5xx is not kept.',
    },
  },
} as const;

/**
 * Safe retries (issue #44, ADR 0119): a route opts in with `idempotent: true` in its declaration,
 * and this attaches the work to those routes only, so no other request pays for it. Runs after
 * the auth hook (the key's owner is the request's token or user) and before the handler.
 */
export function registerIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { store, logger } = options;
  const maxAnswerBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;

  const preHandler: preHandlerAsyncHookHandler = async (request, reply) => {
    const read = readIdempotencyKey(
      request.headers[IDEMPOTENCY_KEY_HEADER],
      request.raw.rawHeaders,
    );
    if (!read) return;
    if ('refused' in read)
      throw new HttpError(422, validationBody({ 'Idempotency-Key': [read.refused] }));
    // Every opted-in route needs a credential; a key without an owner has nothing to scope it.
    if (!request.auth) return;
    const entry = idempotencyEntry(keyOwner(request.tenant, request.auth), read.key);
    const fingerprint = requestFingerprint(request.method, request.url, request.body);
    let claim;
    try {
      claim = await store.claim(entry, fingerprint);
    } catch (error) {
      request.log.warn(
        { err: error },
        'idempotency keys unavailable (Redis); refusing the keyed request',
      );
      throw new HttpError(
        503,
        codeBody(
          'idempotency_unavailable',
          'Requests with an Idempotency-Key cannot be accepted right now. Retry shortly with the same key.',
        ),
        { 'retry-after': '1' },
      );
    }
    switch (claim.state) {
      case 'run':
        (request as ClaimingRequest)[CLAIM] = { entry, lock: claim.lock };
        return;
      case 'replay':
        return replay(reply, claim.answer);
      case 'mismatch':
        throw new HttpError(
          422,
          codeBody(
            'idempotency_key_reused',
            'This Idempotency-Key was already used for a different request (method, path or body). Use a new key for a new request.',
          ),
        );
      case 'in-flight':
        throw new HttpError(
          409,
          codeBody(
            'idempotency_key_in_use',
            'A request with this Idempotency-Key is still being processed. Retry once it has completed.',
          ),
          { 'retry-after': '1' },
        );
    }
  };

  // The answer is kept before it is sent, so a retry that follows it finds it rather than the lock.
  const onSend: onSendHookHandler = (request, reply, payload, done) => {
    const held = (request as ClaimingRequest)[CLAIM];
    if (!held) return done(null, payload);
    (request as ClaimingRequest)[CLAIM] = undefined;
    const answer = keepable(reply, payload, maxAnswerBytes);
    if (!answer && reply.statusCode < 500)
      request.log.warn(
        { status: reply.statusCode },
        'answer too large to keep for an Idempotency-Key; a retry will run again',
      );
    store.settle(held.entry, held.lock, answer).then(
      () => done(null, payload),
      (error: unknown) => {
        // The answer still goes out; the lock lapses after its lease, then a retry runs again.
        logger.warn({ err: error }, 'could not keep the answer of an Idempotency-Key request');
        done(null, payload);
      },
    );
  };

  // A request that ended without an answer (the connection closed first) releases its key.
  const onResponse: onResponseHookHandler = (request, _reply, done) => {
    const held = (request as ClaimingRequest)[CLAIM];
    if (held) {
      (request as ClaimingRequest)[CLAIM] = undefined;
      store.settle(held.entry, held.lock).catch((error: unknown) => {
        logger.warn({ err: error }, 'could not release an Idempotency-Key');
      });
    }
    done();
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const opted = methods.some(
      (method) => ruleFor(String(method), route.url, options.routeTable)?.idempotent,
    );
    if (!opted) return;
    route.preHandler = [...hooksOf(route.preHandler), preHandler];
    route.onSend = [...hooksOf(route.onSend), onSend];
    route.onResponse = [...hooksOf(route.onResponse), onResponse];
  });
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/** The answer as it will be replayed, or undefined: a 5xx (a retry should run again), or too large. */
function keepable(
  reply: FastifyReply,
  payload: unknown,
  maxAnswerBytes: number,
): StoredAnswer | undefined {
  const status = reply.statusCode;
  if (status >= 500) return undefined;
  const body = payload === null || payload === undefined ? '' : payload;
  if (typeof body !== 'string' || Buffer.byteLength(body) > maxAnswerBytes) return undefined;
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { status, headers, body };
}

function replay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  void reply.code(answer.status).headers(answer.headers).header(REPLAYED_HEADER, 'true');
  return reply.send(answer.body === '' ? undefined : answer.body);
}
