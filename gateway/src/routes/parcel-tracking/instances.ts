import type { FastifyInstance } from 'fastify';
import type { ParcelTrackingAdapter } from '../../adapters/parcel-tracking.js';
import { violationsOf } from '../../http/route-input.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { baseUrlOf } from './base-url.js';
import { CREATE_BODY, INSTANCE, TEST_BODY, UPDATE_BODY } from './inputs.js';
import { instanceSchemas } from './instance-schemas.js';
import {
  presentChannel,
  presentCreated,
  presentDashboard,
  presentListed,
  presentUpdated,
} from './present.js';

export interface ParcelTrackingRouteDeps {
  parcelTracking: ParcelTrackingAdapter;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

export const PREFIX = '/api/integrations/parcel-tracking';

/** Parcel tracking: any valid token, no scope (spec Authentication rule 9). */
const ONE = { params: INSTANCE };
export const INSTANCE_ROUTES = declareRoutes({
  testApiKey: {
    method: 'POST',
    url: `${PREFIX}/test`,
    access: 'any-token',
    input: { body: TEST_BODY, deferErrors: true },
  },
  create: {
    method: 'POST',
    url: `${PREFIX}/instances`,
    access: 'any-token',
    successStatus: 201,
    idempotent: true,
    input: { body: CREATE_BODY, deferErrors: true },
  },
  list: { method: 'GET', url: `${PREFIX}/instances`, access: 'any-token' },
  show: { method: 'GET', url: `${PREFIX}/instances/:instance`, access: 'any-token', input: ONE },
  update: {
    method: 'PATCH',
    url: `${PREFIX}/instances/:instance`,
    access: 'any-token',
    input: { params: INSTANCE, body: UPDATE_BODY, deferErrors: true },
  },
  remove: {
    method: 'DELETE',
    url: `${PREFIX}/instances/:instance`,
    access: 'any-token',
    successStatus: 204,
    input: ONE,
  },
  trackableChannels: {
    method: 'GET',
    url: `${PREFIX}/instances/:instance/trackable-channels`,
    access: 'any-token',
    input: ONE,
  },
});

/** The parcel-tracking instance endpoints of the specification. */
export async function parcelTrackingRoutes(
  app: FastifyInstance,
  deps: ParcelTrackingRouteDeps,
): Promise<void> {
  const { parcelTracking } = deps;
  const baseUrl = (request: Parameters<typeof baseUrlOf>[0]) =>
    baseUrlOf(request, deps.publicScheme, deps.publicPort);

  handle(
    app,
    INSTANCE_ROUTES.testApiKey,
    { schema: instanceSchemas.testApiKey },
    async (_request, _reply, { body, errors }) => {
      const { quota } = await parcelTracking.testApiKey({
        api_key: body.api_key,
        input_violations: violationsOf(errors),
      });
      return { data: { quota }, message: 'The API key is valid.' };
    },
  );

  handle(
    app,
    INSTANCE_ROUTES.create,
    { schema: instanceSchemas.create },
    async (request, reply, { body, errors }) => {
      const { instance } = await parcelTracking.createInstance({
        ...body,
        input_violations: violationsOf(errors),
      });
      return reply.send({ data: presentCreated(instance!, baseUrl(request)) });
    },
  );

  handle(app, INSTANCE_ROUTES.list, { schema: instanceSchemas.list }, async (request) => {
    const instances = await parcelTracking.listInstances();
    return { data: instances.map((instance) => presentListed(instance, baseUrl(request))) };
  });

  handle(
    app,
    INSTANCE_ROUTES.show,
    { schema: instanceSchemas.show },
    async (request, _reply, { params }) => {
      const { instance, dashboard } = await parcelTracking.getInstance(params.instance);
      return { data: presentDashboard(instance!, dashboard!, baseUrl(request)) };
    },
  );

  handle(
    app,
    INSTANCE_ROUTES.update,
    { schema: instanceSchemas.update },
    async (_request, _reply, { params, body, errors }) => {
      const { instance } = await parcelTracking.updateInstance({
        id: params.instance,
        ...body,
        quota_alert_threshold: body.quota_alert_threshold ?? undefined,
        quota_forecast_alert_days: body.quota_forecast_alert_days ?? undefined,
        input_violations: violationsOf(errors),
      });
      return { data: presentUpdated(instance!) };
    },
  );

  handle(
    app,
    INSTANCE_ROUTES.remove,
    { schema: instanceSchemas.remove },
    async (_request, reply, { params }) => {
      await parcelTracking.deleteInstance(params.instance);
      return reply.send();
    },
  );

  handle(
    app,
    INSTANCE_ROUTES.trackableChannels,
    { schema: instanceSchemas.trackableChannels },
    async (_request, _reply, { params }) => {
      const { channels } = await parcelTracking.listTrackableChannels(params.instance);
      return { data: channels.map(presentChannel) };
    },
  );
}
