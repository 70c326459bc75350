import type { FastifyInstance, FastifyReply } from 'fastify';
import { ErrorCode, errorEnvelope, errorMessage } from '../errors.js';
import type { KeyAccount } from '../domain/state.js';
import { deleteTrack, getTrackInfo, register, retrack, stopTrack } from '../domain/track-ops.js';
import type { NumberItem } from '../domain/track-ops.js';
import type { Tracking } from '../domain/types.js';
import { readJson } from '../http/body.js';
import { MAX_ITEMS, describeIssue, itemsSchema } from '../http/schemas.js';
import { TRACK_ENDPOINTS } from '../sim.js';
import type { ProviderSim, TrackEndpoint } from '../sim.js';

export const API_PREFIX = '/track/v2.2';

function isEndpoint(name: string): name is TrackEndpoint {
  return (TRACK_ENDPOINTS as readonly string[]).includes(name);
}

/** Answer for a wrong or missing key, per the configured auth style. */
function unauthorized(sim: ProviderSim, reply: FastifyReply) {
  const { state } = sim;
  state.authFailures += 1;
  const use401 =
    state.authStyle === 'http401' ||
    (state.authStyle === 'alternate' && state.authFailures % 2 === 0);
  return reply.code(use401 ? 401 : 200).send(errorEnvelope(ErrorCode.InvalidToken));
}

/** Parses and validates the array body; sends the error answer and returns `undefined` if bad. */
function readItems(body: unknown, reply: FastifyReply): NumberItem[] | undefined {
  if (!Array.isArray(body)) {
    void reply
      .code(400)
      .send(errorEnvelope(ErrorCode.InvalidData, 'Submitted data is invalid: expected an array.'));
    return undefined;
  }
  if (body.length === 0) {
    void reply
      .code(200)
      .send(errorEnvelope(ErrorCode.FieldRequired, errorMessage(ErrorCode.FieldRequired, 'data')));
    return undefined;
  }
  if (body.length > MAX_ITEMS) {
    void reply.code(200).send(errorEnvelope(ErrorCode.LimitExceeded));
    return undefined;
  }
  const parsed = itemsSchema.safeParse(body);
  if (!parsed.success) {
    void reply
      .code(400)
      .send(
        errorEnvelope(
          ErrorCode.InvalidData,
          `Submitted data is invalid: ${describeIssue(parsed.error)}`,
        ),
      );
    return undefined;
  }
  return parsed.data;
}

function run(
  sim: ProviderSim,
  endpoint: Exclude<TrackEndpoint, 'getquota'>,
  account: KeyAccount,
  items: NumberItem[],
) {
  switch (endpoint) {
    case 'register':
      return register(account, items, sim.clock);
    case 'gettrackinfo':
      return getTrackInfo(account, items, sim.clock);
    case 'stoptrack': {
      const stopped: Tracking[] = [];
      const result = stopTrack(account, items, stopped);
      sim.notifyStopped(stopped);
      return result;
    }
    case 'retrack':
      return retrack(account, items);
    case 'deletetrack':
      return deleteTrack(account, items);
  }
}

/** The provider's public API: `POST /track/v2.2/<endpoint>` with the `17token` header. */
export function trackApiRoutes(app: FastifyInstance, sim: ProviderSim): void {
  app.post<{ Params: { endpoint: string } }>(`${API_PREFIX}/:endpoint`, async (req, reply) => {
    const { endpoint } = req.params;
    if (!isEndpoint(endpoint)) {
      return reply
        .code(404)
        .send(errorEnvelope(ErrorCode.InvalidData, 'The requested URL address is incorrect.'));
    }
    const header = req.headers['17token'];
    const key = typeof header === 'string' ? header : '';
    const fault = sim.state.faults.take(endpoint, key);
    if (fault) {
      const code =
        fault.code ??
        (fault.httpStatus === 429 ? ErrorCode.LimitExceeded : ErrorCode.InternalError);
      if (fault.httpStatus === 429) void reply.header('retry-after', '1');
      return reply.code(fault.httpStatus).send(errorEnvelope(code));
    }
    if (!sim.rateLimiter.tryAcquire(key)) {
      return reply
        .code(429)
        .header('retry-after', '1')
        .send(
          errorEnvelope(ErrorCode.LimitExceeded, 'Request frequency exceeds the limit per second.'),
        );
    }
    const account = sim.state.keys.get(key);
    if (!account) return unauthorized(sim, reply);

    if (endpoint === 'getquota') return { code: ErrorCode.Success, data: account.quota.snapshot() };

    const json = readJson(req);
    if (!json.ok) {
      return reply
        .code(400)
        .send(
          errorEnvelope(ErrorCode.InvalidFormat, errorMessage(ErrorCode.InvalidFormat, 'data')),
        );
    }
    const items = readItems(json.value, reply);
    if (!items) return reply;
    return { code: ErrorCode.Success, data: run(sim, endpoint, account, items) };
  });
}
