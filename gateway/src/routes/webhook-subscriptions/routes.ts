import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OutboundDeliveryAdapter } from '../../adapters/outbound-delivery.js';
import { notFoundBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';
import { flatEnvelope, pageMeta } from '../../http/pagination.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { baseUrlOf } from '../parcel-tracking/base-url.js';
import { jsonObjectBody } from '../../http/body.js';
import { readSubscriptionBody } from './body.js';
import { assertMayReceive } from './event-scopes.js';
import { presentDelivery, presentSubscription } from './present.js';
import { readDeliveryFilters, readPaging } from './query.js';

export const PREFIX = '/api/webhook-subscriptions';

/**
 * Scope webhooks:manage, and the user's permission of the same name (ADR 0101); each event also
 * needs its catalog read scope (ADR 0403, checked in the handlers).
 */
const MANAGE = { scope: 'webhooks:manage' } as const;
export const WEBHOOK_SUBSCRIPTION_ROUTES = declareRoutes({
  create: { method: 'POST', url: PREFIX, access: MANAGE, successStatus: 201 },
  list: { method: 'GET', url: PREFIX, access: MANAGE },
  show: { method: 'GET', url: `${PREFIX}/:id`, access: MANAGE },
  update: { method: 'PATCH', url: `${PREFIX}/:id`, access: MANAGE },
  remove: { method: 'DELETE', url: `${PREFIX}/:id`, access: MANAGE, successStatus: 204 },
  rotateSecret: { method: 'POST', url: `${PREFIX}/:id/rotate-secret`, access: MANAGE },
  deliveries: { method: 'GET', url: `${PREFIX}/:id/deliveries`, access: MANAGE },
  redeliver: {
    method: 'POST',
    url: `${PREFIX}/:id/deliveries/:delivery_id/redeliver`,
    access: MANAGE,
    successStatus: 202,
  },
  sendTest: { method: 'POST', url: `${PREFIX}/:id/test`, access: MANAGE, successStatus: 202 },
});

export interface WebhookSubscriptionRouteDeps {
  outboundDelivery: OutboundDeliveryAdapter;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

const NOT_FOUND = 'Webhook subscription not found.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `{id}` is an integer id; anything else cannot name a subscription. */
function subscriptionId(params: unknown): number {
  const raw = (params as { id?: string }).id ?? '';
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw new HttpError(404, notFoundBody(NOT_FOUND));
  return Number(raw);
}

function deliveryId(params: unknown): string {
  const raw = (params as { delivery_id?: string }).delivery_id ?? '';
  if (!UUID.test(raw)) throw new HttpError(404, notFoundBody('Webhook delivery not found.'));
  return raw.toLowerCase();
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

  handle(app, WEBHOOK_SUBSCRIPTION_ROUTES.create, async (request, reply) => {
    const body = readSubscriptionBody(jsonObjectBody(request));
    if (body.events) assertMayReceive(request, body.events);
    const { subscription, secret } = await outboundDelivery.createSubscription({
      url: body.url ?? '',
      events: body.events ?? [],
      description: body.description ?? undefined,
      input_violations: body.inputViolations,
    });
    return reply.send({ data: { ...presentSubscription(subscription!), secret } });
  });

  handle(app, WEBHOOK_SUBSCRIPTION_ROUTES.list, async (request) => {
    const { page, perPage } = readPaging(request.query);
    const { subscriptions, total } = await outboundDelivery.listSubscriptions(page, perPage);
    return flatEnvelope(
      subscriptions.map(presentSubscription),
      pageMeta(page, perPage, total, subscriptions.length),
      pathOf(request),
      rawQueryOf(request),
    );
  });

  handle(app, WEBHOOK_SUBSCRIPTION_ROUTES.show, async (request) => {
    const { subscription } = await outboundDelivery.getSubscription(subscriptionId(request.params));
    return { data: presentSubscription(subscription!) };
  });

  handle(app, WEBHOOK_SUBSCRIPTION_ROUTES.update, async (request) => {
    const id = subscriptionId(request.params);
    const body = readSubscriptionBody(jsonObjectBody(request));
    if (body.events) assertMayReceive(request, body.events);
    const { subscription } = await outboundDelivery.updateSubscription({
      id,
      url: body.url,
      events: body.events ?? [],
      has_events: body.events !== undefined,
      description: body.description ?? undefined,
      clear_description: body.description === null,
      is_active: body.isActive,
      input_violations: body.inputViolations,
    });
    return { data: presentSubscription(subscription!) };
  });

  handle(app, WEBHOOK_SUBSCRIPTION_ROUTES.remove, async (request, reply) => {
    await outboundDelivery.deleteSubscription(subscriptionId(request.params));
    return reply.send();
  });

  handle(app, WEBHOOK_SUBSCRIPTION_ROUTES.rotateSecret, async (request) => {
    const rotated = await outboundDelivery.rotateSecret(subscriptionId(request.params));
    return {
      data: {
        secret: rotated.secret,
        previous_secret_expires_at: rotated.previous_secret_expires_at?.toISOString() ?? null,
      },
    };
  });

  handle(app, WEBHOOK_SUBSCRIPTION_ROUTES.deliveries, async (request) => {
    const id = subscriptionId(request.params);
    const { page, perPage } = readPaging(request.query);
    const filters = readDeliveryFilters(request.query);
    const { deliveries, total } = await outboundDelivery.listDeliveries({
      subscription_id: id,
      page,
      per_page: perPage,
      ...filters,
    });
    return flatEnvelope(
      deliveries.map(presentDelivery),
      pageMeta(page, perPage, total, deliveries.length),
      pathOf(request, `/${id}/deliveries`),
      rawQueryOf(request),
    );
  });

  handle(app, WEBHOOK_SUBSCRIPTION_ROUTES.redeliver, async (request, reply) => {
    const id = subscriptionId(request.params);
    const { delivery } = await outboundDelivery.redeliver(id, deliveryId(request.params));
    return reply.send({ data: presentDelivery(delivery!) });
  });

  handle(app, WEBHOOK_SUBSCRIPTION_ROUTES.sendTest, async (request, reply) => {
    const { delivery } = await outboundDelivery.sendTestPing(subscriptionId(request.params));
    return reply.send({ data: presentDelivery(delivery!) });
  });
}
