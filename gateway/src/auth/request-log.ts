import type { FastifyInstance } from 'fastify';
import { TokenRequestLogged } from '@inventory/contracts/events/v1/identity.js';
import { defineEvent, encodeEvent, maskSecrets, type Logger } from '@inventory/platform';
import { headers as natsHeaders, type NatsConnection } from 'nats';

/** Consumed by identity from its IDENTITY stream (services/identity/src/events/definitions.ts). */
export const TOKEN_REQUEST_LOGGED = defineEvent('identity.token.request_logged', TokenRequestLogged);

/**
 * After each token-authenticated response, one log event goes to NATS. It is a
 * plain publish onto the stream's subject (JetStream stores it; no ack is
 * awaited), sent after the response so it adds no latency. The message id is
 * the event id, so a repeat is stored once.
 */
export function registerRequestLog(app: FastifyInstance, nats: NatsConnection, logger: Logger): void {
  let lastWarning = 0;
  app.addHook('onResponse', async (request, reply) => {
    const auth = request.auth;
    if (auth?.kind !== 'token') return;
    try {
      const { id, bytes } = encodeEvent(TOKEN_REQUEST_LOGGED, {
        tenantId: request.tenant.id,
        requestId: request.id,
        payload: {
          token_id: auth.tokenId,
          user_id: auth.user.id,
          method: request.method,
          route: request.routeOptions.url ?? '',
          path: maskSecrets(request.url.split('?')[0] ?? '').slice(0, 2048),
          status: reply.statusCode,
          duration_ms: Math.round(reply.elapsedTime * 100) / 100,
          ip: request.ip,
          user_agent: String(request.headers['user-agent'] ?? '').slice(0, 512),
          at: new Date(),
        },
      });
      const headers = natsHeaders();
      headers.set('Nats-Msg-Id', id);
      nats.publish(TOKEN_REQUEST_LOGGED.subject, bytes, { headers });
    } catch (error) {
      const now = Date.now();
      if (now - lastWarning > 10_000) {
        lastWarning = now;
        logger.warn({ err: error }, 'could not publish a token request log event');
      }
    }
  });
}
