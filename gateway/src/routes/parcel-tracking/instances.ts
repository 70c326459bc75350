import type { FastifyInstance } from 'fastify';
import type { ParcelTrackingAdapter } from '../../adapters/parcel-tracking.js';
import { notFoundBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { baseUrlOf } from './base-url.js';
import { readCreateBody, readTestBody, readUpdateBody } from './body.js';
import { jsonObjectBody } from '../../http/body.js';
import { presentChannel, presentCreated, presentDashboard, presentUpdated } from './present.js';

export interface ParcelTrackingRouteDeps {
  parcelTracking: ParcelTrackingAdapter;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

export const PREFIX = '/api/integrations/parcel-tracking';

/** Parcel tracking: any valid token, no scope (spec Authentication rule 9). */
export const INSTANCE_ROUTES = declareRoutes({
  testApiKey: { method: 'POST', url: `${PREFIX}/test`, access: 'any-token' },
  create: {
    method: 'POST',
    url: `${PREFIX}/instances`,
    access: 'any-token',
    successStatus: 201,
  },
  show: { method: 'GET', url: `${PREFIX}/instances/:instance`, access: 'any-token' },
  update: { method: 'PATCH', url: `${PREFIX}/instances/:instance`, access: 'any-token' },
  remove: {
    method: 'DELETE',
    url: `${PREFIX}/instances/:instance`,
    access: 'any-token',
    successStatus: 204,
  },
  trackableChannels: {
    method: 'GET',
    url: `${PREFIX}/instances/:instance/trackable-channels`,
    access: 'any-token',
  },
});

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

  handle(app, INSTANCE_ROUTES.testApiKey, async (request) => {
    const { apiKey, inputViolations } = readTestBody(request.body);
    const { quota } = await parcelTracking.testApiKey({
      api_key: apiKey,
      input_violations: inputViolations,
    });
    return { data: { quota }, message: 'The API key is valid.' };
  });

  handle(app, INSTANCE_ROUTES.create, async (request, reply) => {
    jsonObjectBody(request, { required: true });
    const { instance } = await parcelTracking.createInstance(readCreateBody(request.body));
    return reply.send({ data: presentCreated(instance!, baseUrl(request)) });
  });

  handle(app, INSTANCE_ROUTES.show, async (request) => {
    const { instance, dashboard } = await parcelTracking.getInstance(instanceId(request.params));
    return { data: presentDashboard(instance!, dashboard!, baseUrl(request)) };
  });

  handle(app, INSTANCE_ROUTES.update, async (request) => {
    jsonObjectBody(request, { required: true });
    const { instance } = await parcelTracking.updateInstance(
      readUpdateBody(instanceId(request.params), request.body),
    );
    return { data: presentUpdated(instance!) };
  });

  handle(app, INSTANCE_ROUTES.remove, async (request, reply) => {
    await parcelTracking.deleteInstance(instanceId(request.params));
    return reply.send();
  });

  handle(app, INSTANCE_ROUTES.trackableChannels, async (request) => {
    const { channels } = await parcelTracking.listTrackableChannels(instanceId(request.params));
    return { data: channels.map(presentChannel) };
  });
}
