import type { FastifyInstance } from 'fastify';
import type { IdentityRouteDeps } from './deps.js';
import { presentUser } from './present.js';
import { BodyReader } from '../../http/body.js';

/** The current user (session or any valid token) and its two-factor settings (session only). */
export async function userRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  app.get(
    '/api/user',
    { schema: { tags: ['Users'], summary: 'The authenticated user' } },
    async (request) => {
      const user = await deps.currentUsers.load(request.tenant.id, request.auth!.user.id);
      return { data: presentUser(user) };
    },
  );

  app.post(
    '/api/user/two-factor',
    {
      schema: { tags: ['Users'], summary: 'Start two-factor enrollment: a TOTP secret to confirm' },
    },
    async () => {
      const answer = await deps.identity.enrollTwoFactor();
      return { data: { secret: answer.secret, otpauth_url: answer.otpauth_url } };
    },
  );

  app.post(
    '/api/user/two-factor/confirm',
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

  app.delete(
    '/api/user/two-factor',
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
      return reply.code(204).send();
    },
  );
}
