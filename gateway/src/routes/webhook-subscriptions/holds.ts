import type { FastifyInstance } from 'fastify';
import { declareRoutes, handle } from '../../http/routes.js';
import { presentSubscription } from './present.js';
import { BY_ID, MANAGE, PREFIX, type SubscriptionRouteKit } from './route-kit.js';
import { subscriptionSchemas } from './schemas.js';

export const HOLD_ROUTES = declareRoutes({
  pause: { method: 'POST', url: `${PREFIX}/:id/pause`, access: MANAGE, input: BY_ID },
  resume: { method: 'POST', url: `${PREFIX}/:id/resume`, access: MANAGE, input: BY_ID },
});

/** Holding a subscription's deliveries and letting them go again (ADR 0412). */
export function holdRoutes(app: FastifyInstance, kit: SubscriptionRouteKit): void {
  const { outboundDelivery, subscriptionFor } = kit;

  handle(
    app,
    HOLD_ROUTES.pause,
    { schema: subscriptionSchemas.pause },
    async (request, _reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { subscription } = await outboundDelivery.pauseSubscription(params.id);
      return { data: presentSubscription(subscription!) };
    },
  );

  handle(
    app,
    HOLD_ROUTES.resume,
    { schema: subscriptionSchemas.resume },
    async (request, _reply, { params }) => {
      await subscriptionFor(request, params.id);
      const { subscription } = await outboundDelivery.resumeSubscription(params.id);
      return { data: presentSubscription(subscription!) };
    },
  );
}
