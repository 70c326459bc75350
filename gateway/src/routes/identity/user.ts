import type { FastifyInstance } from 'fastify';
import type { IdentityRouteDeps } from './deps.js';
import { presentUser } from './present.js';
import { BodyReader } from '../../http/body.js';
import { declareRoutes, handle } from '../../http/routes.js';

export const USER_ROUTES = declareRoutes({
  current: { method: 'GET', url: '/api/user', access: 'any-token' },
  enrollTwoFactor: { method: 'POST', url: '/api/user/two-factor', access: 'session' },
  confirmTwoFactor: { method: 'POST', url: '/api/user/two-factor/confirm', access: 'session' },
  disableTwoFactor: {
    method: 'DELETE',
    url: '/api/user/two-factor',
    access: 'session',
    successStatus: 204,
  },
});

/** The current user (session or any valid token) and its two-factor settings (session only). */
export async function userRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  handle(
    app,
    USER_ROUTES.current,
    { schema: { tags: ['Users'], summary: 'The authenticated user' } },
    async (request) => {
      const user = await deps.currentUsers.load(request.tenant.id, request.auth!.user.id);
      return { data: presentUser(user) };
    },
  );

  handle(
    app,
    USER_ROUTES.enrollTwoFactor,
    {
      schema: { tags: ['Users'], summary: 'Start two-factor enrollment: a TOTP secret to confirm' },
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
        body: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
      },
    },
    async (request) => {
      const body = BodyReader.of(request);
      const code = body.string('code', { required: true, max: 64 });
      body.done();
      const recoveryCodes = await deps.identity.confirmTwoFactor(code!);
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
        body: {
          type: 'object',
          required: ['password', 'code'],
          properties: { password: { type: 'string' }, code: { type: 'string' } },
        },
      },
    },
    async (request, reply) => {
      const body = BodyReader.of(request);
      const password = body.string('password', { required: true, max: 1024 });
      const code = body.string('code', { required: true, max: 64 });
      body.done();
      await deps.identity.disableTwoFactor(password!, code!);
      return reply.send();
    },
  );
}
