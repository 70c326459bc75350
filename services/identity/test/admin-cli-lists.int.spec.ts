import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from './admin-cli.js';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');

// The CLI on the system `npm start` runs: with MONGO_URL unset it reads `<DEV_DATA_DIR>/dev.json`.
describe(
  'npm run admin: dev.json and the list commands (child processes)',
  { timeout: 120_000 },
  () => {
    let infra: TestInfra;
    let dataDir: string;
    // No MONGO_URL: it comes from the file. Each test has a database of its own, so none sees
    // another's tenants.
    const envIn = (database: string): NodeJS.ProcessEnv => ({
      DEV_DATA_DIR: dataDir,
      MONGO_DB: infra.dbName(`identity_${database}`),
    });

    beforeAll(async () => {
      infra = await startTestInfra({ redis: false });
      dataDir = await mkdtemp(join(tmpdir(), 'admin-dev-'));
      // What the launcher writes (tools/dev/src/dev-file.ts), trimmed to what these commands read:
      // no nats_url, as no identity service made the token stream revoke-token would publish to.
      await writeFile(
        join(dataDir, 'dev.json'),
        JSON.stringify({ mongo_url: infra.mongoUrl, base_domain: 'devfile.test' }),
      );
    });
    afterAll(async () => {
      await infra?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('reads MongoDB and the base domain from dev.json when MONGO_URL is not set, and says so', async () => {
      const env = envIn('devfile');
      const created = await admin(['create-tenant', '--slug', 'zeta'], env);
      expect(created.code).toBe(0);
      expect(created.json.domains).toEqual(['zeta.devfile.test']);
      expect(created.stderr).toContain(`using the system of ${join(dataDir, 'dev.json')}`);
    });

    it("`npm run -s admin` (the README's form) writes only JSON, which a pipe can parse whole", async () => {
      const env = envIn('npm-silent');
      expect((await admin(['create-tenant', '--slug', 'piped'], env)).code).toBe(0);
      const { stdout } = await promisify(execFile)(
        'npm',
        ['run', '-s', 'admin', '--', 'list-tenants'],
        { cwd: REPO_ROOT, env: { ...process.env, ...env } },
      );
      expect(JSON.parse(stdout)).toEqual({
        tenants: [expect.objectContaining({ slug: 'piped' })],
      });
    });

    it('lists tenants, users and unrevoked tokens (never a secret), each within its tenant', async () => {
      const env = envIn('lists');
      const tenants = await Promise.all([
        admin(['create-tenant', '--slug', 'alpha', '--domain', 'shop.alpha.test'], env),
        admin(['create-tenant', '--slug', 'beta'], env),
      ]);
      tenants.forEach((result) => expect(result.code).toBe(0));
      const user = (tenant: string, email: string) =>
        admin(
          ['create-user', '--tenant', tenant, '--email', email, '--name', 'U', '--password-stdin'],
          env,
          'a-long-password-1\n',
        );
      expect((await user('alpha', 'ann@alpha.test')).code).toBe(0);
      expect((await user('alpha', 'bob@alpha.test')).code).toBe(0);
      expect((await user('beta', 'cy@beta.test')).code).toBe(0);
      const token = (tenant: string, email: string, name: string) =>
        admin(
          [
            'create-token',
            '--tenant',
            tenant,
            '--email',
            email,
            '--name',
            name,
            '--scopes',
            'products:read',
          ],
          env,
        );
      const [annCi, annOld, bobCi, cyCi] = await Promise.all([
        token('alpha', 'ann@alpha.test', 'ci'),
        token('alpha', 'ann@alpha.test', 'old'),
        token('alpha', 'bob@alpha.test', 'ci'),
        token('beta', 'cy@beta.test', 'ci'),
      ]);
      for (const result of [annCi, annOld, bobCi, cyCi]) expect(result.code).toBe(0);
      const revoked = await admin(
        ['revoke-token', '--tenant', 'alpha', '--id', String(annOld.json.token.id)],
        env,
      );
      expect(revoked.code).toBe(0);

      const [listedTenants, alphaUsers, alphaTokens, annTokens, betaTokens] = await Promise.all([
        admin(['list-tenants'], env),
        admin(['list-users', '--tenant', 'alpha'], env),
        admin(['list-tokens', '--tenant', 'alpha'], env),
        admin(['list-tokens', '--tenant', 'alpha', '--email', 'ann@alpha.test'], env),
        admin(['list-tokens', '--tenant', 'beta'], env),
      ]);
      expect(listedTenants.code).toBe(0);
      expect(listedTenants.json.tenants.map((t: { slug: string }) => t.slug)).toEqual([
        'alpha',
        'beta',
      ]);
      expect(listedTenants.json.tenants[0].domains).toEqual([
        'alpha.devfile.test',
        'shop.alpha.test',
      ]);

      expect(alphaUsers.json.users.map((u: { email: string }) => u.email)).toEqual([
        'ann@alpha.test',
        'bob@alpha.test',
      ]);
      expect(alphaUsers.stdout).not.toContain('password');

      const summary = (result: typeof alphaTokens) =>
        result.json.tokens.map((t: { id: number; name: string; user_email: string }) => [
          t.id,
          t.name,
          t.user_email,
        ]);
      // The tokens were created concurrently, so their ids (the listing's order) may come either way.
      expect(summary(alphaTokens)).toEqual(
        [
          [annCi.json.token.id, 'ci', 'ann@alpha.test'],
          [bobCi.json.token.id, 'ci', 'bob@alpha.test'],
        ].sort(([a], [b]) => a - b),
      );
      expect(summary(annTokens)).toEqual([[annCi.json.token.id, 'ci', 'ann@alpha.test']]);
      expect(summary(betaTokens)).toEqual([[cyCi.json.token.id, 'ci', 'cy@beta.test']]);
      expect(alphaTokens.json.tokens.map((t: { scopes: string[] }) => t.scopes)).toEqual([
        ['products:read'],
        ['products:read'],
      ]);
      const secret = annCi.json.plain_text_token.split('|')[1];
      for (const listed of [alphaTokens, annTokens]) {
        expect(listed.stdout).not.toContain(secret);
        expect(listed.stdout).not.toContain('secret_hash');
      }
    });

    it('refuses list commands with missing or foreign arguments (2) and unknown tenants or users (1)', async () => {
      const env = envIn('refusals');
      expect((await admin(['create-tenant', '--slug', 'beta'], env)).code).toBe(0);
      const [noTenant, extra, unknownTenant, unknownUser] = await Promise.all([
        admin(['list-users'], env),
        admin(['list-tenants', '--tenant', 'alpha'], env),
        admin(['list-tokens', '--tenant', 'nope'], env),
        admin(['list-tokens', '--tenant', 'beta', '--email', 'ghost@beta.test'], env),
      ]);
      expect([noTenant.code, noTenant.error.error]).toEqual([2, 'list-users needs --tenant']);
      expect([extra.code, extra.error.error]).toEqual([2, 'list-tenants does not take --tenant']);
      expect([unknownTenant.code, unknownTenant.error]).toEqual([
        1,
        { error: 'no tenant with slug nope', reason: 'not_found' },
      ]);
      expect([unknownUser.code, unknownUser.error]).toEqual([
        1,
        { error: 'no user ghost@beta.test in this tenant', reason: 'not_found' },
      ]);
    });

    it('lets an explicit MONGO_URL win over dev.json, and names a dev.json that is not JSON (78)', async () => {
      const env = envIn('explicit');
      expect((await admin(['create-tenant', '--slug', 'explicit'], env)).code).toBe(0);
      const otherDir = await mkdtemp(join(tmpdir(), 'admin-dev-bad-'));
      try {
        await writeFile(join(otherDir, 'dev.json'), '{ not json');
        const broken = await admin(['list-tenants'], { ...env, DEV_DATA_DIR: otherDir });
        expect(broken.code).toBe(78);
        expect(broken.error.error).toBe(
          `${join(otherDir, 'dev.json')} is not JSON; set MONGO_URL or restart npm start`,
        );
        const explicit = await admin(['list-tenants'], {
          ...env,
          DEV_DATA_DIR: otherDir,
          MONGO_URL: infra.mongoUrl,
        });
        expect(explicit.code).toBe(0);
        expect(explicit.stderr).not.toContain('using the system of');
        expect(explicit.json.tenants.map((t: { slug: string }) => t.slug)).toEqual(['explicit']);
      } finally {
        await rm(otherDir, { recursive: true, force: true });
      }
    });
  },
);
