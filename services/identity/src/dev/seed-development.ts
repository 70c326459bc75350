import type { Tenant } from '@inventory/contracts/identity/v1/identity.js';
import { SCOPES } from '@inventory/access';
import { hashPassword, verifyPassword } from '../domain/password.js';
import { presentTenant } from '../grpc/mappers.js';
import { openOffline } from '../offline.js';

export interface SeedDevelopmentOptions {
  mongoUrl: string;
  dbName: string;
  slug: string;
  email: string;
  password: string;
  /** Default `inventory.localhost`; must match the gateway's BASE_DOMAIN. */
  baseDomain?: string;
  /** Scheme and port of the printed base_url (default http, port omitted when 0/80/443). */
  publicScheme?: 'http' | 'https';
  publicPort?: number;
}

export interface SeededDevelopment {
  tenant: Tenant;
  host: string;
  base_url: string;
  email: string;
  password: string;
  /** `<id>|<secret>` holding every scope; a fresh one each run (the previous seed token is revoked). */
  token: string;
}

const SEED_TOKEN_NAME = 'development (seeded)';

/**
 * Idempotent development data: the tenant, an owner user with this password,
 * and one token with every scope. Re-running keeps the tenant and user, resets
 * the password to the one given, and replaces the seeded token.
 */
export async function seedDevelopment(options: SeedDevelopmentOptions): Promise<SeededDevelopment> {
  const identity = await openOffline({
    mongoUrl: options.mongoUrl,
    dbName: options.dbName,
    baseDomain: options.baseDomain,
  });
  const { useCases, store } = identity;
  try {
    const existing = await store.tenants.findBySlug(options.slug.toLowerCase());
    const tenant = presentTenant(
      existing ?? (await useCases.createTenant.execute({ slug: options.slug, name: options.slug })),
    );

    let user = await store.users.findByEmail(tenant.id, options.email);
    if (!user) {
      await useCases.createUser.execute(tenant.id, {
        email: options.email,
        name: 'Development Owner',
        password: options.password,
        isOwner: true,
        permissions: [],
      });
      user = await store.users.findByEmail(tenant.id, options.email);
    } else if (!(await verifyPassword(options.password, user.password_hash))) {
      await store.users.update(tenant.id, user.id, {
        password_hash: await hashPassword(options.password),
        is_owner: true,
      });
    }
    const userId = user!.id;

    const previous = await store.tokens.findOwnedByName(tenant.id, userId, SEED_TOKEN_NAME);
    for (const token of previous) await useCases.revokeToken.execute(tenant.id, userId, token.id);
    const created = await useCases.createToken.execute(tenant.id, userId, {
      name: SEED_TOKEN_NAME,
      scopes: [...SCOPES],
      ipAllowlist: [],
    });

    const host =
      tenant.domains.find((domain) => domain.startsWith(`${tenant.slug}.`)) ?? tenant.domains[0]!;
    const scheme = options.publicScheme ?? 'http';
    const port =
      options.publicPort &&
      !(scheme === 'http' && options.publicPort === 80) &&
      !(scheme === 'https' && options.publicPort === 443)
        ? `:${options.publicPort}`
        : '';
    return {
      tenant,
      host,
      base_url: `${scheme}://${host}${port}`,
      email: options.email.toLowerCase(),
      password: options.password,
      token: created.plainTextToken,
    };
  } finally {
    await identity.close();
  }
}
