import type { FastifyInstance } from 'fastify';
import type { HealthWindow } from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { dataOf, row } from '../../http/row-schema.js';
import { isoOrNull } from '../../http/timestamps.js';
import { BY_ID, MANAGE, PREFIX, type SubscriptionRouteKit } from './route-kit.js';

export const SUBSCRIPTION_HEALTH_ROUTES = declareRoutes({
  health: { method: 'GET', url: `${PREFIX}/:id/health`, access: MANAGE, input: BY_ID },
});

const HEALTH_WINDOW_ROW = row({
  attempts: { type: 'integer', description: 'Attempts made in the window, of every cycle' },
  succeeded: { type: 'integer', description: 'Of those, answered with a 2xx' },
  success_rate: {
    type: ['number', 'null'],
    description: 'succeeded / attempts, from 0 to 1; null when no attempt was made',
  },
  p95_latency_ms: {
    type: ['integer', 'null'],
    description:
      'Nearest-rank 95th percentile of the response times of the attempts that got a response; null when none did',
  },
  last_failure: {
    oneOf: [
      { type: 'null' },
      row({
        attempted_at: 'date-time?',
        response_status: 'integer?',
        error: 'string?',
        delivery_id: 'string',
      }),
    ],
    description:
      'The latest attempt that did not get a 2xx: its response status, or its error when no response came; null when none',
  },
});

export const healthSchemas = {
  health: {
    tags: ['Webhook subscriptions'],
    summary: 'Success rate, p95 latency and last failure over the last 24 hours and 7 days',
    response: { 200: dataOf(row({ last_24h: HEALTH_WINDOW_ROW, last_7d: HEALTH_WINDOW_ROW })) },
  },
};

function presentWindow(window: HealthWindow | undefined) {
  const failure = window?.last_failure;
  return {
    attempts: window?.attempts ?? 0,
    succeeded: window?.succeeded ?? 0,
    success_rate: window?.success_rate ?? null,
    p95_latency_ms: window?.p95_latency_ms ?? null,
    last_failure: failure
      ? {
          attempted_at: isoOrNull(failure.attempted_at),
          response_status: failure.response_status ?? null,
          error: failure.error ?? null,
          delivery_id: failure.delivery_id,
        }
      : null,
  };
}

/** A subscription's health from its attempt log (ADR 0417); the same access as its reads. */
export function healthRoutes(app: FastifyInstance, kit: SubscriptionRouteKit): void {
  const { outboundDelivery, subscriptionFor } = kit;
  handle(
    app,
    SUBSCRIPTION_HEALTH_ROUTES.health,
    { schema: healthSchemas.health },
    async (request, _reply, { params }) => {
      await subscriptionFor(request, params.id);
      const health = await outboundDelivery.getSubscriptionHealth(params.id);
      return {
        data: { last_24h: presentWindow(health.last_24h), last_7d: presentWindow(health.last_7d) },
      };
    },
  );
}
