import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { readJson } from '../http/body.js';
import {
  addKeySchema,
  advanceSchema,
  authStyleSchema,
  describeIssue,
  failSchema,
  pushSchema,
  replaySchema,
  setStatusSchema,
} from '../http/schemas.js';
import { SimError } from '../sim.js';
import type { ProviderSim, TrackEndpoint } from '../sim.js';

export const ADMIN_PREFIX = '/__sim';

/** Parses the JSON body with `schema` (an empty body counts as `{}`); throws a 400 SimError. */
function body<S extends z.ZodTypeAny>(req: FastifyRequest, schema: S): z.output<S> {
  const raw = typeof req.body === 'string' ? req.body : '';
  let value: unknown = {};
  if (raw.trim() !== '') {
    const json = readJson(req);
    if (!json.ok) throw new SimError(400, 'body is not valid JSON');
    value = json.value;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SimError(400, describeIssue(parsed.error));
  return parsed.data as z.output<S>;
}

function sendError(reply: FastifyReply, err: unknown) {
  if (err instanceof SimError) return reply.code(err.status).send({ error: err.message });
  throw err;
}

type Handler = (req: FastifyRequest<{ Params: { number: string } }>) => unknown;

/** Test/dev controls: `/__sim/*`, JSON in and out; errors are `{ error }` with a 4xx status. */
export function adminRoutes(app: FastifyInstance, sim: ProviderSim): void {
  const route = (method: 'GET' | 'POST', url: string, handler: Handler) =>
    app.route<{ Params: { number: string } }>({
      method,
      url: `${ADMIN_PREFIX}${url}`,
      handler: async (req, reply) => {
        try {
          return await handler(req);
        } catch (err) {
          return sendError(reply, err);
        }
      },
    });

  route('POST', '/keys', (req) => {
    const b = body(req, addKeySchema);
    return sim.addKey({
      key: b.key,
      ...(b.quota_total !== undefined && { quotaTotal: b.quota_total }),
      ...(b.max_track_daily !== undefined && { maxTrackDaily: b.max_track_daily }),
      ...(b.webhook_url !== undefined && { webhookUrl: b.webhook_url }),
    });
  });

  route('GET', '/keys', () =>
    [...sim.state.keys.values()].map((a) => ({
      key: a.key,
      webhook_url: a.webhookUrl,
      ...a.quota.snapshot(),
    })),
  );

  route('GET', '/trackings', () => ({ trackings: sim.trackings() }));

  route('POST', '/trackings/:number/advance', (req) => {
    const b = body(req, advanceSchema);
    const result = sim.advance(req.params.number, b.api_key);
    if (!result.changed)
      throw new SimError(409, `'${req.params.number}' is at the end of its progression`);
    return result;
  });

  route('POST', '/trackings/:number/status', (req) => {
    const b = body(req, setStatusSchema);
    return sim.setStatus(req.params.number, b.status, b.sub_status, b.api_key);
  });

  route('POST', '/push', async (req) => {
    const b = body(req, pushSchema);
    const result = await sim.pushWebhook({
      url: b.url,
      number: b.number,
      ...(b.event && { event: b.event }),
      ...(b.api_key && { apiKey: b.api_key }),
    });
    return {
      status: result.status,
      delivered: result.delivered,
      attempts: result.attempts,
      statuses: result.statuses,
    };
  });

  route('GET', '/webhooks', () => ({ deliveries: sim.state.deliveries }));

  route('POST', '/webhooks/:index/replay', async (req) => {
    const b = body(req, replaySchema);
    const index = Number((req.params as unknown as { index: string }).index);
    if (!Number.isInteger(index) || index < 0) throw new SimError(404, 'no such webhook delivery');
    const result = await sim.replayWebhook({ index, ...(b.url && { url: b.url }) });
    return {
      status: result.status,
      delivered: result.delivered,
      attempts: result.attempts,
      statuses: result.statuses,
    };
  });

  route('POST', '/fail', (req) => {
    const b = body(req, failSchema);
    sim.failNext(b.endpoint as TrackEndpoint | '*', {
      ...(b.http_status !== undefined && { httpStatus: b.http_status }),
      ...(b.code !== undefined && { code: b.code }),
      ...(b.times !== undefined && { times: b.times }),
      ...(b.api_key !== undefined && { apiKey: b.api_key }),
    });
    return { pending: sim.state.faults.pending() };
  });

  route('POST', '/auth-style', (req) => {
    const b = body(req, authStyleSchema);
    sim.setAuthStyle(b.style);
    return { style: b.style };
  });

  route('POST', '/reset', () => {
    sim.reset();
    return { ok: true };
  });
}
