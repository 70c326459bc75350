import type { FastifyRequest } from 'fastify';
import type { OutboundDeliveryAdapter } from '../../adapters/outbound-delivery.js';
import { baseUrlOf } from '../parcel-tracking/base-url.js';
import { assertMayReceive } from './event-scopes.js';
import { SUBSCRIPTION } from './inputs.js';

export const PREFIX = '/api/webhook-subscriptions';

/**
 * Scope webhooks:manage, and the user's permission of the same name (ADR 0101); each event also
 * needs its catalog read scope (ADR 0403, checked in the handlers).
 */
export const MANAGE = { scope: 'webhooks:manage' } as const;
/** The input of a route that names one subscription and nothing else. */
export const BY_ID = { params: SUBSCRIPTION };

export interface WebhookSubscriptionRouteDeps {
  outboundDelivery: OutboundDeliveryAdapter;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

export { rawQueryOf } from '../../http/pagination.js';

/** What the handlers of every group share. */
export function subscriptionRouteKit(deps: WebhookSubscriptionRouteDeps) {
  const { outboundDelivery } = deps;
  return {
    outboundDelivery,
    /** The tenant's own URL of a page of this API, for a list's links. */
    pathOf: (request: FastifyRequest, suffix = '') =>
      `${baseUrlOf(request, deps.publicScheme, deps.publicPort)}${PREFIX}${suffix}`,
    /** The subscription, once the caller is known to hold every event it carries (ADR 0409). */
    subscriptionFor: async (request: FastifyRequest, id: number) => {
      const { subscription } = await outboundDelivery.getSubscription(id);
      assertMayReceive(request, subscription!.events);
      return subscription!;
    },
  };
}

export type SubscriptionRouteKit = ReturnType<typeof subscriptionRouteKit>;
