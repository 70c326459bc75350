/**
 * Operator commands, straight on identity's database through its use cases:
 *
 *   npm run admin -- create-tenant --slug acme [--name "Acme"] [--domain shop.acme.test ...]
 *   npm run admin -- create-user --tenant acme --email a@acme.test --name Ann --password '...' [--owner] [--permissions orders:read,orders:write]
 *   npm run admin -- create-token --tenant acme --email a@acme.test --name ci [--scopes orders:read,...] [--expires-at 2030-01-01T00:00:00Z] [--ip-allowlist 10.0.0.0/8,...] [--rate-limit 100]
 *   npm run admin -- revoke-token --tenant acme --id 12
 *
 * Reads MONGO_URL, MONGO_DB (default identity) and BASE_DOMAIN; prints what it made as JSON.
 */
import { parseArgs } from 'node:util';
import { describeCallError } from '@inventory/platform';
import { openOffline, type OfflineIdentity } from '../offline.js';

const list = (value: string | undefined) =>
  value
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : [];

async function tenantId(identity: OfflineIdentity, slug: string | undefined): Promise<string> {
  if (!slug) throw new Error('--tenant <slug> is required');
  const found = await identity.store.tenants.findBySlug(slug.toLowerCase());
  if (!found) throw new Error(`no tenant with slug ${slug}`);
  return found.tenant.tenant_id;
}

async function userId(
  identity: OfflineIdentity,
  tenant: string,
  email: string | undefined,
): Promise<number> {
  if (!email) throw new Error('--email is required');
  const user = await identity.store.users.findByEmail(tenant, email);
  if (!user) throw new Error(`no user ${email} in this tenant`);
  return user.id;
}

async function run(
  command: string | undefined,
  values: Record<string, string | boolean | string[] | undefined>,
  identity: OfflineIdentity,
): Promise<unknown> {
  const str = (key: string) =>
    typeof values[key] === 'string' ? (values[key] as string) : undefined;
  switch (command) {
    case 'create-tenant':
      return identity.useCases.createTenant.execute({
        slug: str('slug') ?? '',
        name: str('name'),
        customDomains: (values.domain as string[] | undefined) ?? [],
      });
    case 'create-user': {
      const tenant = await tenantId(identity, str('tenant'));
      return identity.useCases.createUser.execute(tenant, {
        email: str('email') ?? '',
        name: str('name') ?? '',
        password: str('password') ?? '',
        isOwner: values.owner === true,
        permissions: list(str('permissions')),
      });
    }
    case 'create-token': {
      const tenant = await tenantId(identity, str('tenant'));
      const user = await userId(identity, tenant, str('email'));
      const expires = str('expires-at');
      const rate = str('rate-limit');
      return identity.useCases.createToken.execute(tenant, user, {
        name: str('name') ?? '',
        scopes: list(str('scopes')),
        expiresAt: expires ? new Date(expires) : undefined,
        ipAllowlist: list(str('ip-allowlist')),
        rateLimitPerMinute: rate ? Number(rate) : undefined,
      });
    }
    case 'revoke-token': {
      const tenant = await tenantId(identity, str('tenant'));
      const id = Number(str('id'));
      await identity.useCases.revokeToken.execute(tenant, undefined, id);
      return { revoked: id };
    }
    default:
      throw new Error(
        'usage: admin create-tenant|create-user|create-token|revoke-token [--options]',
      );
  }
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    slug: { type: 'string' },
    name: { type: 'string' },
    domain: { type: 'string', multiple: true },
    tenant: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    owner: { type: 'boolean' },
    permissions: { type: 'string' },
    scopes: { type: 'string' },
    'expires-at': { type: 'string' },
    'ip-allowlist': { type: 'string' },
    'rate-limit': { type: 'string' },
    id: { type: 'string' },
  },
});

const mongoUrl = process.env.MONGO_URL;
if (!mongoUrl) {
  console.error('MONGO_URL is required');
  process.exit(78);
}
const identity = await openOffline({
  mongoUrl,
  dbName: process.env.MONGO_DB ?? 'identity',
  baseDomain: process.env.BASE_DOMAIN,
});
try {
  const result = await run(positionals[0], values, identity);
  console.log(JSON.stringify(result, null, 2));
} catch (error) {
  const described = describeCallError(error);
  console.error(
    JSON.stringify(
      { error: described.message, reason: described.reason, fields: described.fieldViolations },
      null,
      2,
    ),
  );
  process.exitCode = 1;
} finally {
  await identity.close();
}
