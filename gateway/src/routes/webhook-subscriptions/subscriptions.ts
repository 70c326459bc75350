import type { FastifyInstance } from 'fastify';
import { flatEnvelope, pageMeta } from '../../http/pagination.js';
import { violationsOf } from '../../http/route-input.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { assertMayReceive, subscriptionOwner } from './event-scopes.js';
import { filterJsonOf, PAGING, SUBSCRIPTION, SUBSCRIPTION_BODY } from './inputs.js';
import { presentSubscription } from './present.js';
import { BY_ID, MANAGE, PREFIX, rawQueryOf, type SubscriptionRouteKit } from './route-kit.js';
import { subscriptionSchemas } from './schemas.js';

export const SUBSCRIPTION_ROUTES = declareRoutes({
  create: {
    method: 'POST',
    url: PREFIX,
    access: MANAGE,
    successStatus: 201,
    idempotent: true,
    input: { body: SUBSCRIPTION_BODY, deferErrors: true },
  },
  list: { method: 'GET', url: PREFIX, access: MANAGE, input: { query: PAGING } },
  show: { method: 'GET', url: `${PREFIX}/:id`, access: MANAGE, input: BY_ID },
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
    input: BY_ID,
  },
  rotateSecret: {
    method: 'POST',
    url: `${PREFIX}/:id/rotate-secret`,
    access: MANAGE,
    idempotent: true,
    input: BY_ID,
  },
});

/** A subscription's own record: create, list, read, change, delete, and its secret's rotation. */
export function subscriptionRoutes(app: FastifyInstance, kit: SubscriptionRouteKit): void {
  const { outboundDelivery, pathOf, subscriptionFor } = kit;

  handle(
    app,
    SUBSCRIPTION_ROUTES.create,
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
        filter_json: filterJsonOf(body.filter),
      });
      return reply.send({ data: { ...presentSubscription(subscription!), secret } });
    },
  );

  handle(
    app,
    SUBSCRIPTION_ROUTES.list,
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
    SUBSCRIPTION_ROUTES.show,
    { schema: subscriptionSchemas.show },
    async (request, _reply, { params }) => {
      return { data: presentSubscription(await subscriptionFor(request, params.id)) };
    },
  );

  handle(
    app,
    SUBSCRIPTION_ROUTES.update,
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
        filter_json: filterJsonOf(body.filter),
      });
      return { data: presentSubscription(subscription!) };
    },
  );

  handle(
    app,
    SUBSCRIPTION_ROUTES.remove,
    { schema: subscriptionSchemas.remove },
    async (_request, reply, { params }) => {
      await outboundDelivery.deleteSubscription(params.id);
      return reply.send();
    },
  );

  handle(
    app,
    SUBSCRIPTION_ROUTES.rotateSecret,
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
}
