import type { FastifyInstance } from 'fastify';
import { deliveryRoutes } from './deliveries.js';
import { healthRoutes } from './health.js';
import { holdRoutes } from './holds.js';
import { subscriptionRouteKit, type WebhookSubscriptionRouteDeps } from './route-kit.js';
import { subscriptionRoutes } from './subscriptions.js';

export type { WebhookSubscriptionRouteDeps } from './route-kit.js';
export { DELIVERY_ROUTES } from './deliveries.js';
export { SUBSCRIPTION_HEALTH_ROUTES } from './health.js';
export { HOLD_ROUTES } from './holds.js';
export { SUBSCRIPTION_ROUTES } from './subscriptions.js';

/**
 * Outbound webhook subscriptions, their secrets and their delivery log, one file per group of
 * routes; registered in the order the OpenAPI document lists them.
 */
export async function webhookSubscriptionRoutes(
  app: FastifyInstance,
  deps: WebhookSubscriptionRouteDeps,
): Promise<void> {
  const kit = subscriptionRouteKit(deps);
  subscriptionRoutes(app, kit);
  deliveryRoutes(app, kit);
  holdRoutes(app, kit);
  healthRoutes(app, kit);
}
