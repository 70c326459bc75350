import type { FastifyInstance } from 'fastify';
import { field } from '../../http/body-fields.js';
import { addError, type InputField } from '../../http/input-field.js';
import { body } from '../../http/route-input.js';
import { declareRoutes, handle } from '../../http/routes.js';
import type { IdentityRouteDeps } from './deps.js';

/** Reports from one address per minute: enough for a scanner, too few to guess secrets with. */
export const LEAK_REPORTS_PER_MINUTE = 10;
const MAX_CREDENTIALS = 100;

/** The same answer whatever was reported, so a reporter learns nothing about any token. */
export const LEAK_REPORT_ANSWER = {
  message:
    'Thank you. Every reported credential is checked; any that is valid is revoked and its owner told.',
} as const;

/** `credentials`: 1 to 100 strings, each `<id>|<secret>` as found. */
function credentials(): InputField<string[] | undefined> {
  const list = field.stringArray({ maxItems: MAX_CREDENTIALS, itemMax: 200, nulls: 'invalid' });
  return {
    schema: {
      ...list.schema,
      minItems: 1,
      description: 'Personal access tokens as found, `<id>|<secret>`',
    },
    required: true,
    read(value, name, errors) {
      if (value === undefined || value === null || (Array.isArray(value) && value.length === 0))
        return void addError(errors, name, 'The credentials field is required.');
      return list.read(value, name, errors) ?? undefined;
    },
  };
}

const REPORT_BODY = body({
  credentials: credentials(),
  url: field.string({ max: 1000, refuseControls: true }),
});

/**
 * Leaked-token reports (ADR 0115), as GitHub's credential revocation API: public, limited per
 * client address, answered 202 with one fixed body once identity has revoked what matched.
 */
export const LEAKED_TOKEN_ROUTES = declareRoutes({
  report: {
    method: 'POST',
    url: '/api/credentials/revoke',
    access: 'public',
    perAddressPerMinute: LEAK_REPORTS_PER_MINUTE,
    successStatus: 202,
    input: { body: REPORT_BODY },
  },
});

const schema = {
  tags: ['Personal access tokens'],
  summary: 'Report leaked tokens: each valid one is revoked and its owner alerted',
  description:
    'For secret scanners and anyone who finds a token: send the whole tokens and where they were found. ' +
    'The answer is the same whether or not any token was valid. A token is revoked only with its whole secret.',
  response: {
    202: {
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string' } },
    },
  },
};

export async function leakedTokenRoutes(
  app: FastifyInstance,
  deps: IdentityRouteDeps,
): Promise<void> {
  handle(app, LEAKED_TOKEN_ROUTES.report, { schema }, async (_request, reply, { body }) => {
    await deps.identity.reportLeakedTokens(body.credentials ?? [], body.url ?? '');
    return reply.send(LEAK_REPORT_ANSWER);
  });
}
