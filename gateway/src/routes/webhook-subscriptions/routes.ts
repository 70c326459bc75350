import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OutboundDeliveryAdapter } from '../../adapters/outbound-delivery.js';
import { validationBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';
import { flatEnvelope, pageMeta } from '../../http/pagination.js';
import { violationsOf } from '../../http/route-input.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { baseUrlOf } from '../parcel-tracking/base-url.js';
import { assertMayReceive, subscriptionOwner } from './event-scopes.js';
import {
  DELIVERY,
  DELIVERY_FILTERS,
  PAGING,
  RECOVER_BODY,
  RECOVER_JOB,
  SUBSCRIPTION,
  SUBSCRIPTION_BODY,
} from './inputs.js';
import { presentDelivery, presentRecoverJob, presentSubscription } from './present.js';
import { subscriptionSchemas } from './schemas.js';

export const PREFIX = '/api/webhook-subscriptions';

/**
 * Scope webhooks:manage, and the user's permission of the same name (ADR 0101); each event also
 * needs its catalog read scope (ADR 0403, checked in the handlers).
 */
const MANAGE = { scope: 'webhooks:manage' } as const;
const ONE = { params: SUBSCRIPTION };
export const WEBHOOK_SUBSCRIPTION_ROUTES = declareRoutes({
  create: {
    method: 'POST',
    url: PREFIX,
    access: MANAGE,
    successStatus: 201,
    idempotent: true,
    input: { body: SUBSCRIPTION_BODY, deferErrors: true },
  },
  list: { method: 'GET', url: PREFIX, access: MANAGE, input: { query: PAGING } },
  show: { method: 'GET', url: `${PREFIX}/:id`, access: MANAGE, input: ONE },
  update: {
    method: 'PATCH',
    url: `${PREFIX}/:id`,
    access: MANAGE,
    input: { params: SUBSCRIPTION, body: SUBSCRIPTION_BODY, deferErrors: true },
  },
  remove: {
    method: 'DELETE',
    url: `${PREFIX}/:id`,
    access: MANAGE,
    successStatus: 204,
    input: ONE,
  },
  rotateSecret: {
    method: 'POST',
    url: `${PREFIX}/:id/rotate-secret`,
    access: MANAGE,
    idempotent: true,
    input: ONE,
  },
  deliveries: {
    method: 'GET',
    url: `${PREFIX}/:id/deliveries`,
    access: MANAGE,
    input: { params: SUBSCRIPTION, query: { ...PAGING, ...DELIVERY_FILTERS } },
  },
  redeliver: {
    method: 'POST',
    url: `${PREFIX}/:id/deliveries/:delivery_id/redeliver`,
    access: MANAGE,
    idempotent: true,
    successStatus: 202,
    refusesState: true,
    input: { params: DELIVERY },
  },
  sendTest: {
    method: 'POST',
    url: `${PREFIX}/:id/test`,
    access: MANAGE,
    idempotent: true,
    successStatus: 202,
    refusesState: true,
    input: ONE,
  },
  recover: {
    method: 'POST',
    url: `${PREFIX}/:id/recover`,
    access: MANAGE,
    idempotent: true,
    successStatus: 202,
    refusesState: true,
    input: { params: SUBSCRIPTION, body: RECOVER_BODY },
  },
  recoverJob: {
    method: 'GET',
    url: `${PREFIX}/:id/recover/:job_id`,
    access: MANAGE,
    input: { params: RECOVER_JOB },
  },
  pause: { method: 'POST', url: `${PREFIX}/:id/pause`, access: MANAGE, input: ONE },
  resume: { method: 'POST', url: `${PREFIX}/:id/resume`, access: MANAGE, input: ONE },
});

export interface WebhookSubscriptionRouteDeps {
  outboundDelivery: OutboundDeliveryAdapter;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

const rawQueryOf = (request: FastifyRequest) => {
  const at = request.url.indexOf('?');
  return at < 0 ? '' : request.url.slice(at + 1);
};

/** Outbound webhook subscriptions, their secrets and their delivery log. */
export async function webhookSubscriptionRoutes(
  app: FastifyInstance,
  deps: WebhookSubscriptionRouteDeps,
): Promise<void> {
  const { outboundDelivery } = deps;
  const pathOf = (request: FastifyRequest, suffix = '') =>
    `${baseUrlOf(request, deps.publicScheme, deps.publicPort)}${PREFIX}${suffix}`;
  /** The subscription, once the caller is known to hold every event it carries (ADR 0409). */
  const subscriptionFor = async (request: FastifyRequest, id: number) => {
    const { subscription } = await outboundDelivery.getSubscription(id);
    assertMayReceive(request, subscription!.events);
    return subscription!;
  };

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.create,
    { schema: subscriptionSchemas.create },
    async (request, reply, { body, errors }) => {
      if (body.events) assertMayReceive(request, body.events);
      const { subscription, secret } = await outboundDelivery.createSubscription({
        url: body.url ?? '',
        events: body.events ?? [],
        description: body.description ?? undefined,
        input_violations: violationsOf(errors),
        owner: subscriptionOwner(request),
        is_active: body.is_active,
      });
      return reply.send({ data: { ...presentSubscription(subscription!), secret } });
    },
  );

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.list,
    { schema: subscriptionSchemas.list },
    async (request, _reply, { query }) => {
      const { page, per_page: perPage } = query;
      const { subscriptions, total } = await outboundDelivery.listSubscriptions(page, perPage);
      return flatEnvelope(
        subscriptions.map(presentSubscription),
        pageMeta(page, perPage, total, subscriptions.length),
        pathOf(request),
        rawQueryOf(request),
      );
    },
  );

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.show,
    { schema: subscriptionSchemas.show },
    async (request, _reply, { params }) => {
      return { data: presentSubscription(await subscriptionFor(request, params.id)) };
    },
  );

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.update,
    { schema: subscriptionSchemas.update },
    async (request, _reply, input) => {
      const { body } = input;
      if (body.events) assertMayReceive(request, body.events);
      await subscriptionFor(request, input.params.id);
      const { subscription } = await outboundDelivery.updateSubscription({
        id: input.params.id,
        url: body.url,
        events: body.events ?? [],
        has_events: body.events !== undefined,
        description: body.description ?? undefined,
        clear_description: body.description === null,
        is_active: body.is_active,
        input_violations: violationsOf(input.errors),
        owner: subscriptionOwner(request),
      });
      return { data: presentSubscription(subscription!) };
    },
  );

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.remove,
    { schema: subscriptionSchemas.remove },
    async (_request, reply, { params }) => {
      await outboundDelivery.deleteSubscription(params.id);
      return reply.send();
    },
  );

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.rotateSecret,
    { schema: subscriptionSchemas.rotateSecret },
    async (request, _reply, { params }) => {
      await subscriptionFor(request, params.id);
      const rotated = await outboundDelivery.rotateSecret(params.id);
      return {
        data: {
          secret: rotated.secret,
          previous_secret_expires_at: rotated.previous_secret_expires_at?.toISOString() ?? null,
        },
      };
    },
  );

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.deliveries,
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
    WEBHOOK_SUBSCRIPTION_ROUTES.redeliver,
    { schema: subscriptionSchemas.redeliver },
    async (request, reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { delivery } = await outboundDelivery.redeliver(params.id, params.delivery_id);
      return reply.send({ data: presentDelivery(delivery!) });
    },
  );

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.sendTest,
    { schema: subscriptionSchemas.sendTest },
    async (request, reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { delivery } = await outboundDelivery.sendTestPing(params.id);
      return reply.send({ data: presentDelivery(delivery!) });
    },
  );

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.recover,
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
    WEBHOOK_SUBSCRIPTION_ROUTES.recoverJob,
    { schema: subscriptionSchemas.recoverJob },
    async (request, _reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { job } = await outboundDelivery.getRecoverJob(params.id, params.job_id);
      return { data: presentRecoverJob(job!) };
    },
  );

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.pause,
    { schema: subscriptionSchemas.pause },
    async (request, _reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { subscription } = await outboundDelivery.pauseSubscription(params.id);
      return { data: presentSubscription(subscription!) };
    },
  );

  handle(
    app,
    WEBHOOK_SUBSCRIPTION_ROUTES.resume,
    { schema: subscriptionSchemas.resume },
    async (request, _reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { subscription } = await outboundDelivery.resumeSubscription(params.id);
      return { data: presentSubscription(subscription!) };
    },
  );
}
