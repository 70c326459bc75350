import type { FastifyInstance } from 'fastify';
import type { ParcelTrackingAdapter } from '../../adapters/parcel-tracking.js';
import { notFoundBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';
import { baseUrlOf } from './base-url.js';
import { readCreateBody, readTestBody, readUpdateBody, requireJsonObject } from './body.js';
import { presentChannel, presentCreated, presentDashboard, presentUpdated } from './present.js';

export interface ParcelTrackingRouteDeps {
  parcelTracking: ParcelTrackingAdapter;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

export const PREFIX = '/api/integrations/parcel-tracking';

/** Every route path this module registers, for the route table (all `any-token`). */
export const PARCEL_TRACKING_ROUTES = [
  `POST ${PREFIX}/test`,
  `POST ${PREFIX}/instances`,
  `GET ${PREFIX}/instances/:instance`,
  `PATCH ${PREFIX}/instances/:instance`,
  `DELETE ${PREFIX}/instances/:instance`,
  `GET ${PREFIX}/instances/:instance/trackable-channels`,
] as const;

/** `{instance}` is an integer id; anything else cannot name a record. */
export function instanceId(params: unknown): number {
  const raw = (params as { instance?: string }).instance ?? '';
  if (!/^[1-9]\d{0,14}$/.test(raw))
    throw new HttpError(404, notFoundBody('Parcel-tracking instance not found.'));
  return Number(raw);
}

/** The parcel-tracking instance endpoints of the specification. */
export async function parcelTrackingRoutes(
  app: FastifyInstance,
  deps: ParcelTrackingRouteDeps,
): Promise<void> {
  const { parcelTracking } = deps;
  const baseUrl = (request: Parameters<typeof baseUrlOf>[0]) =>
    baseUrlOf(request, deps.publicScheme, deps.publicPort);

  app.post(`${PREFIX}/test`, async (request) => {
    const { apiKey, inputViolations } = readTestBody(request.body);
    const { quota } = await parcelTracking.testApiKey({
      api_key: apiKey,
      input_violations: inputViolations,
    });
    return { data: { quota }, message: 'The API key is valid.' };
  });

  app.post(`${PREFIX}/instances`, async (request, reply) => {
    requireJsonObject(request.headers['content-type'], request.body);
    const { instance } = await parcelTracking.createInstance(readCreateBody(request.body));
    return reply.code(201).send({ data: presentCreated(instance!, baseUrl(request)) });
  });

  app.get(`${PREFIX}/instances/:instance`, async (request) => {
    const { instance, dashboard } = await parcelTracking.getInstance(instanceId(request.params));
    return { data: presentDashboard(instance!, dashboard!, baseUrl(request)) };
  });

  app.patch(`${PREFIX}/instances/:instance`, async (request) => {
    requireJsonObject(request.headers['content-type'], request.body);
    const { instance } = await parcelTracking.updateInstance(
      readUpdateBody(instanceId(request.params), request.body),
    );
    return { data: presentUpdated(instance!) };
  });

  app.delete(`${PREFIX}/instances/:instance`, async (request, reply) => {
    await parcelTracking.deleteInstance(instanceId(request.params));
    return reply.code(204).send();
  });

  app.get(`${PREFIX}/instances/:instance/trackable-channels`, async (request) => {
    const { channels } = await parcelTracking.listTrackableChannels(instanceId(request.params));
    return { data: channels.map(presentChannel) };
  });
}
