import type { FastifyInstance } from 'fastify';
import type { WebhookIngestAdapter } from '../../adapters/webhook-ingest.js';
import { validationBody } from '../../http/envelopes.js';
import { param } from '../../http/param-fields.js';
import { violationsToErrors } from '../../http/grpc-to-http.js';
import { HttpError } from '../../http/http-error.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { row } from '../../http/row-schema.js';

/** The provider's answer once the bytes are stored. */
const RECEIVED = { response: { 200: row({ message: { const: 'Webhook received.' } }) } };

export interface WebhookRouteDeps {
  webhookIngest: WebhookIngestAdapter;
}

const PROVIDER_SEGMENT = 'parcel-tracking';

/** Inbound provider webhooks: the token in the path is the credential. */
export const INBOUND_WEBHOOK_ROUTES = declareRoutes({
  parcelTracking: {
    method: 'POST',
    url: `/webhooks/${PROVIDER_SEGMENT}/:token`,
    access: 'public',
    // The provider's body is read raw (the signature covers the bytes): refused by webhook-ingest.
    refusesState: true,
    // The body is the provider's, kept byte for byte: webhook-ingest reads it.
    input: {
      params: {
        token: param.matching(/^wh_[A-Za-z0-9_-]{32,128}$/, 'The webhook address is not known.'),
      },
    },
  },
});

/**
 * Inbound provider webhooks: public (the token in the path is the credential).
 * The raw body is kept byte for byte (signatures are computed over it) and
 * stored durably by webhook-ingest before the 200; its background job processes
 * it. A bad `sign` is stored as failed and answered 401, an unreadable body 422
 * (ADR 0220); an unknown token 404 with nothing stored.
 */
export async function parcelTrackingWebhookRoutes(
  app: FastifyInstance,
  deps: WebhookRouteDeps,
): Promise<void> {
  // Scoped to this plugin: every content type arrives as a raw Buffer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  handle(
    app,
    INBOUND_WEBHOOK_ROUTES.parcelTracking,
    { schema: RECEIVED },
    async (request, _reply, { params }) => {
      const { token } = params;
      // A token only works on its own tenant's address: webhook-ingest checks it in the same call.
      const tenant = (request as unknown as { tenant?: { id?: string } }).tenant;
      const sign = request.headers.sign;
      const answer = await deps.webhookIngest.ingest({
        token,
        provider: PROVIDER_SEGMENT,
        raw_body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        content_type: request.headers['content-type'] ?? '',
        signature: typeof sign === 'string' ? sign : undefined,
        tenant_id: tenant?.id || undefined,
      });
      if (answer.rejection === 'invalid_signature')
        throw new HttpError(401, { message: answer.message });
      if (answer.rejection !== '')
        throw new HttpError(
          422,
          validationBody(violationsToErrors(answer.violations), answer.message),
        );
      return { message: 'Webhook received.' };
    },
  );
}
