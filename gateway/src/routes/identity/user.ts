import type { FastifyInstance } from 'fastify';
import type { IdentityRouteDeps } from './deps.js';
import { presentUser } from './present.js';
import { field } from '../../http/body-fields.js';
import { body } from '../../http/route-input.js';
import { dataOf, row } from '../../http/row-schema.js';
import { USER_ROW } from './user-schema.js';
import { declareRoutes, handle } from '../../http/routes.js';

const code = () => field.string({ required: true, max: 64 });

export const USER_ROUTES = declareRoutes({
  current: { method: 'GET', url: '/api/user', access: 'any-token' },
  enrollTwoFactor: {
    method: 'POST',
    url: '/api/user/two-factor',
    access: 'session',
    refusesState: true,
  },
  confirmTwoFactor: {
    method: 'POST',
    url: '/api/user/two-factor/confirm',
    access: 'session',
    input: { body: body({ code: code() }) },
  },
  disableTwoFactor: {
    method: 'DELETE',
    url: '/api/user/two-factor',
    access: 'session',
    successStatus: 204,
    input: { body: body({ password: field.string({ required: true, max: 1024 }), code: code() }) },
  },
});

/** The current user (session or any valid token) and its two-factor settings (session only). */
export async function userRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  handle(
    app,
    USER_ROUTES.current,
    {
      schema: {
        tags: ['Users'],
        summary: 'The authenticated user',
        response: { 200: dataOf(USER_ROW) },
      },
    },
    // A cached user is answered without a promise (ADR 0718).
    (request) => {
      const { id: tenantId } = request.tenant;
      const userId = request.auth!.user.id;
      const cached = deps.currentUsers.cached(tenantId, userId);
      if (cached) return { data: presentUser(cached) };
      return deps.currentUsers.load(tenantId, userId).then((user) => ({ data: presentUser(user) }));
    },
  );

  handle(
    app,
    USER_ROUTES.enrollTwoFactor,
    {
      schema: {
        tags: ['Users'],
        summary: 'Start two-factor enrollment: a TOTP secret to confirm',
        response: { 200: dataOf(row({ secret: 'string', otpauth_url: 'string' })) },
      },
    },
    async () => {
      const answer = await deps.identity.enrollTwoFactor();
      return { data: { secret: answer.secret, otpauth_url: answer.otpauth_url } };
    },
  );

  handle(
    app,
    USER_ROUTES.confirmTwoFactor,
    {
      schema: {
        tags: ['Users'],
        summary: 'Confirm enrollment with a code; returns recovery codes once',
        response: { 200: dataOf(row({ recovery_codes: 'string[]' })) },
      },
    },
    async (_request, _reply, input) => {
      const recoveryCodes = await deps.identity.confirmTwoFactor(input.body.code!);
      return { data: { recovery_codes: recoveryCodes } };
    },
  );

  handle(
    app,
    USER_ROUTES.disableTwoFactor,
    {
      schema: {
        tags: ['Users'],
        summary: 'Turn two-factor authentication off (password and a current code)',
      },
    },
    async (_request, reply, { body }) => {
      await deps.identity.disableTwoFactor(body.password!, body.code!);
      return reply.send();
    },
  );
}
