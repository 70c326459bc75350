import type { FastifyInstance } from 'fastify';
import { validationBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';
import { flatEnvelope, pageMeta } from '../../http/pagination.js';
import { declareRoutes, handle } from '../../http/routes.js';
import {
  DELIVERY,
  DELIVERY_FILTERS,
  PAGING,
  RECOVER_BODY,
  RECOVER_JOB,
  SUBSCRIPTION,
} from './inputs.js';
import { presentDelivery, presentRecoverJob } from './present.js';
import { BY_ID, MANAGE, PREFIX, rawQueryOf, type SubscriptionRouteKit } from './route-kit.js';
import { subscriptionSchemas } from './schemas.js';

export const DELIVERY_ROUTES = declareRoutes({
  deliveries: {
    method: 'GET',
    url: `${PREFIX}/:id/deliveries`,
    access: MANAGE,
    input: { params: SUBSCRIPTION, query: { ...PAGING, ...DELIVERY_FILTERS } },
  },
  delivery: {
    method: 'GET',
    url: `${PREFIX}/:id/deliveries/:delivery_id`,
    access: MANAGE,
    input: { params: DELIVERY },
  },
  redeliver: {
    method: 'POST',
    url: `${PREFIX}/:id/deliveries/:delivery_id/redeliver`,
    access: MANAGE,
    successStatus: 202,
    refusesState: true,
    idempotent: true,
    input: { params: DELIVERY },
  },
  sendTest: {
    method: 'POST',
    url: `${PREFIX}/:id/test`,
    access: MANAGE,
    successStatus: 202,
    refusesState: true,
    idempotent: true,
    input: BY_ID,
  },
  recover: {
    method: 'POST',
    url: `${PREFIX}/:id/recover`,
    access: MANAGE,
    successStatus: 202,
    refusesState: true,
    idempotent: true,
    input: { params: SUBSCRIPTION, body: RECOVER_BODY },
  },
  recoverJob: {
    method: 'GET',
    url: `${PREFIX}/:id/recover/:job_id`,
    access: MANAGE,
    input: { params: RECOVER_JOB },
  },
});

/** A subscription's delivery log, and what sends again: a redelivery, a test ping, a recovery. */
export function deliveryRoutes(app: FastifyInstance, kit: SubscriptionRouteKit): void {
  const { outboundDelivery, pathOf, subscriptionFor } = kit;

  handle(
    app,
    DELIVERY_ROUTES.deliveries,
    { schema: subscriptionSchemas.deliveries },
    async (request, _reply, input) => {
      const id = input.params.id;
      await subscriptionFor(request, id);
      const { page, per_page: perPage, status, event } = input.query;
      const { deliveries, total } = await outboundDelivery.listDeliveries({
        subscription_id: id,
        page,
        per_page: perPage,
        status,
        event,
      });
      return flatEnvelope(
        deliveries.map(presentDelivery),
        pageMeta(page, perPage, total, deliveries.length),
        pathOf(request, `/${id}/deliveries`),
        rawQueryOf(request),
      );
    },
  );

  handle(
    app,
    DELIVERY_ROUTES.delivery,
    { schema: subscriptionSchemas.delivery },
    async (request, _reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { delivery } = await outboundDelivery.getDelivery(params.id, params.delivery_id);
      return { data: { ...presentDelivery(delivery!), payload: delivery!.payload ?? null } };
    },
  );

  handle(
    app,
    DELIVERY_ROUTES.redeliver,
    { schema: subscriptionSchemas.redeliver },
    async (request, reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { delivery } = await outboundDelivery.redeliver(params.id, params.delivery_id);
      return reply.send({ data: presentDelivery(delivery!) });
    },
  );

  handle(
    app,
    DELIVERY_ROUTES.sendTest,
    { schema: subscriptionSchemas.sendTest },
    async (request, reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { delivery } = await outboundDelivery.sendTestPing(params.id);
      return reply.send({ data: presentDelivery(delivery!) });
    },
  );

  handle(
    app,
    DELIVERY_ROUTES.recover,
    { schema: subscriptionSchemas.recover },
    async (request, reply, { params, body }) => {
      await subscriptionFor(request, params.id);
      if (!body.since)
        throw new HttpError(422, validationBody({ since: ['The since field is required.'] }));
      const { job } = await outboundDelivery.recoverDeliveries(params.id, body.since);
      return reply.send({ data: presentRecoverJob(job!) });
    },
  );

  handle(
    app,
    DELIVERY_ROUTES.recoverJob,
    { schema: subscriptionSchemas.recoverJob },
    async (request, _reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { job } = await outboundDelivery.getRecoverJob(params.id, params.job_id);
      return { data: presentRecoverJob(job!) };
    },
  );
}
