import { createHash } from 'node:crypto';
import { hasTokenChecksum } from '@inventory/access';
import { IdentityServiceClient } from '@inventory/contracts/identity/v1/identity.js';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import {
  createGrpcClient,
  describeCallError,
  newRequestId,
  runWithContext,
  type GrpcClientHandle,
  type ServiceRuntime,
} from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { admin, NO_DEV_FILE } from './admin-cli.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

// Each run starts node + tsx afresh (a few seconds on a busy machine), hence the generous timeout.
describe('npm run admin (the operator CLI, as a child process)', { timeout: 120_000 }, () => {
  let infra: TestInfra;
  let service: ServiceRuntime;
  let client: GrpcClientHandle<IdentityServiceClient>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    const dbName = infra.dbName('identity');
    // The CLI and the service share the embedded MongoDB (in this process, reachable over TCP).
    env = { MONGO_URL: infra.mongoUrl, MONGO_DB: dbName, BASE_DOMAIN: 'cli.test' };
    service = await bootstrap({ ...env, NATS_URL: infra.natsUrl, LOG_LEVEL: 'silent' });
    client = createGrpcClient(IdentityServiceClient, service.grpc!.address);
  });
  afterAll(async () => {
    client?.close();
    await service?.stop();
    await infra?.stop();
  });

  const tokenForAuth = (tenantId: string, tokenId: number) =>
    runWithContext({ requestId: newRequestId(), tenantId }, () =>
      client.call.getTokenForAuth({ token_id: tokenId }),
    );

  it('prints its usage for --help, and refuses bad arguments with exit 2 before connecting', async () => {
    const help = await admin(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: npm run admin -- <command> [options]');
    for (const command of ['create-tenant', 'create-user', 'create-token', 'revoke-token'])
      expect(help.stdout).toContain(command);

    // No MONGO_URL given: these fail on their arguments alone.
    const user = ['create-user', '--tenant', 'acme', '--email', 'a@acme.test', '--name', 'A'];
    const passwordEnv = { ADMIN_USER_PASSWORD: 'from the environment' };
    const cases: Array<[string[], string, NodeJS.ProcessEnv?]> = [
      [[], 'a command is required'],
      [['drop-everything'], 'unknown command: drop-everything'],
      [
        ['create-user', '--tenant', 'acme'],
        'create-user needs --email, --name, a password (--password-stdin or ADMIN_USER_PASSWORD)',
      ],
      // No password source, and stdin is a pipe, not a terminal: no prompt.
      [user, 'create-user needs a password (--password-stdin or ADMIN_USER_PASSWORD)'],
      [[...user, '--password', ''], 'create-user needs --password'],
      [
        [...user, '--password', 'x', '--password-stdin'],
        'create-user takes the password from one source, got --password and --password-stdin',
      ],
      [
        [...user, '--password-stdin'],
        'create-user takes the password from one source, got --password-stdin and ADMIN_USER_PASSWORD',
        passwordEnv,
      ],
      [
        [...user, '--password', 'x'],
        'create-user takes the password from one source, got --password and ADMIN_USER_PASSWORD',
        passwordEnv,
      ],
      [['create-tenant', '--slug', 'a', '--password-stdin'], 'create-tenant does not take'],
      [['create-tenant'], 'create-tenant needs --slug'],
      [['create-tenant', '--slug', 'a', '--bogus'], "Unknown option '--bogus'"],
      [['create-tenant', '--slug', 'a', '--scopes', 'x'], 'create-tenant does not take --scopes'],
      [['revoke-token', '--tenant', 'acme', '--id', 'twelve'], '--id must be a positive whole'],
      [
        ['create-token', '--tenant', 'a', '--email', 'e', '--name', 'n', '--rate-limit', '-1'],
        '--rate-limit',
      ],
    ];
    const results = await Promise.all(cases.map(([args, , caseEnv]) => admin(args, caseEnv ?? {})));
    results.forEach((result, index) => {
      expect(result.code, cases[index]![0].join(' ')).toBe(2);
      expect(result.error.error).toContain(cases[index]![1]);
      expect(result.stderr).not.toContain('from the environment');
      expect(result.stderr).toContain('usage: npm run admin');
      expect(result.stdout).toBe('');
    });

    const noMongo = await admin(['create-tenant', '--slug', 'acme'], NO_DEV_FILE);
    expect(noMongo.code).toBe(78);
    expect(noMongo.error.error).toBe(
      'MONGO_URL is required (or run npm start, which writes .data/dev.json)',
    );
    // Another command ignores ADMIN_USER_PASSWORD.
    const otherCommand = await admin(['create-tenant', '--slug', 'acme'], {
      ...NO_DEV_FILE,
      ...passwordEnv,
    });
    expect(otherCommand.code).toBe(78);
  });

  it('create-user takes the password from stdin, ADMIN_USER_PASSWORD or (with a warning) --password, and never prints it', async () => {
    const tenant = await admin(['create-tenant', '--slug', 'pw'], env);
    expect(tenant.code).toBe(0);
    const createUser = (email: string, extra: string[], extraEnv = {}, input = '') =>
      admin(
        ['create-user', '--tenant', 'pw', '--email', email, '--name', 'Pat', ...extra],
        { ...env, ...extraEnv },
        input,
      );
    const login = (email: string, password: string) =>
      runWithContext({ requestId: newRequestId(), tenantId: tenant.json.id }, () =>
        client.call.login({ email, password }),
      ).then(
        (answer) => answer.csrf_token.length > 20,
        (error: unknown) => describeCallError(error).reason,
      );

    const PIPED = 'piped password, first line';
    const ENV = 'password from the environment';
    const OPTION = 'password on the command line';
    const [stdin, crlf, fromEnv, option] = await Promise.all([
      // Only the first line counts; its newline is not part of the password.
      createUser('stdin@pw.test', ['--password-stdin'], {}, `${PIPED}\nsecond line\n`),
      createUser('crlf@pw.test', ['--password-stdin'], {}, `${PIPED}\r\n`),
      createUser('env@pw.test', [], { ADMIN_USER_PASSWORD: ENV }),
      createUser('option@pw.test', ['--password', OPTION]),
    ]);
    for (const [result, email, password] of [
      [stdin, 'stdin@pw.test', PIPED],
      [crlf, 'crlf@pw.test', PIPED],
      [fromEnv, 'env@pw.test', ENV],
      [option, 'option@pw.test', OPTION],
    ] as const) {
      expect(result.code, `${email}: ${result.stderr}`).toBe(0);
      expect(result.json).toMatchObject({ email, is_owner: false });
      expect(result.stdout).not.toContain(password);
      expect(result.stderr).not.toContain(password);
      expect(await login(email, password), email).toBe(true);
    }
    expect(await login('stdin@pw.test', `${PIPED}\n`)).toBe('invalid_credentials');
    expect(await login('stdin@pw.test', 'second line')).toBe('invalid_credentials');

    // --password still works, with a warning on stderr (stdout stays the JSON result).
    expect(option.stderr).toContain('warning: --password is visible in the process list');
    expect(option.stderr).toContain('use --password-stdin');
    for (const quiet of [stdin, crlf, fromEnv]) expect(quiet.stderr).toBe('');

    // The password's own validation stays with the use case: an empty stdin is refused there.
    const empty = await createUser('empty@pw.test', ['--password-stdin'], {}, '');
    expect(empty.code).toBe(1);
    expect(empty.error).toMatchObject({
      reason: 'validation_failed',
      fields: [{ field: 'password' }],
    });
  });

  it('creates a tenant, a user and a token that authenticates; revokes it so it no longer does', async () => {
    const tenant = await admin(
      ['create-tenant', '--slug', 'Acme', '--name', 'Acme Inc', '--domain', 'shop.acme.test'],
      env,
    );
    expect(tenant.code).toBe(0);
    expect(tenant.json).toMatchObject({
      slug: 'acme',
      name: 'Acme Inc',
      domains: ['acme.cli.test', 'shop.acme.test'],
    });
    // The running service sees it.
    expect((await client.call.resolveTenant({ host: 'shop.acme.test' })).tenant!.id).toBe(
      tenant.json.id,
    );

    const duplicate = await admin(['create-tenant', '--slug', 'acme'], env);
    expect(duplicate.code).toBe(1);
    expect(duplicate.error).toMatchObject({
      reason: 'validation_failed',
      fields: [{ field: 'slug', description: 'The slug has already been taken.' }],
    });

    const user = await admin(
      [
        'create-user',
        '--tenant',
        'acme',
        '--email',
        'ops@acme.test',
        '--name',
        'Ops',
        '--password',
        'a long enough password',
        '--permissions',
        'orders:read,orders:write',
      ],
      env,
    );
    expect(user.code).toBe(0);
    expect(user.json).toMatchObject({
      email: 'ops@acme.test',
      is_owner: false,
      permissions: ['orders:read', 'orders:write'],
    });
    expect(JSON.stringify(user.json)).not.toContain('a long enough password');

    const created = await admin(
      [
        'create-token',
        '--tenant',
        'acme',
        '--email',
        'ops@acme.test',
        '--name',
        'ci',
        '--scopes',
        'orders:read',
        '--rate-limit',
        '100',
      ],
      env,
    );
    expect(created.code).toBe(0);
    const plain = created.json.plain_text_token as string;
    const [id, secret] = plain.split('|');
    expect(Number(id)).toBe(created.json.token.id);
    expect(secret).toMatch(/^[A-Za-z0-9]{50}$/);
    expect(hasTokenChecksum(plain)).toBe(true);
    const auth = await tokenForAuth(tenant.json.id, Number(id));
    expect(auth.token).toMatchObject({
      secret_hash: sha256(secret!),
      scopes: ['orders:read'],
      rate_limit_per_minute: 100,
      user_id: user.json.id,
      user_permissions: ['orders:read', 'orders:write'],
    });

    const revoked = await admin(['revoke-token', '--tenant', 'acme', '--id', id!], env);
    expect(revoked.code).toBe(0);
    expect(revoked.json).toEqual({ revoked: Number(id) });
    const after = await tokenForAuth(tenant.json.id, Number(id)).catch((error: unknown) =>
      describeCallError(error),
    );
    expect(after).toMatchObject({ reason: 'not_found' });

    const again = await admin(['revoke-token', '--tenant', 'acme', '--id', id!], env);
    expect(again.code).toBe(1);
    expect(again.error).toMatchObject({ reason: 'not_found' });
  });

  it('refuses a missing tenant or user and invalid input with exit 1 and a clear message', async () => {
    expect((await admin(['create-tenant', '--slug', 'haunted'], env)).code).toBe(0);
    const [noTenant, badSlug, noUser] = await Promise.all([
      admin(['revoke-token', '--tenant', 'nope', '--id', '1'], env),
      admin(['create-tenant', '--slug', 'not a slug!'], env),
      admin(
        ['create-token', '--tenant', 'haunted', '--email', 'ghost@haunted.test', '--name', 'x'],
        env,
      ),
    ]);
    expect(noTenant.code).toBe(1);
    expect(noTenant.error).toEqual({ error: 'no tenant with slug nope', reason: 'not_found' });
    expect(badSlug.code).toBe(1);
    expect(badSlug.error).toMatchObject({
      reason: 'validation_failed',
      fields: [{ field: 'slug' }],
    });
    expect(noUser.code).toBe(1);
    expect(noUser.error).toEqual({
      error: 'no user ghost@haunted.test in this tenant',
      reason: 'not_found',
    });
  });
});
