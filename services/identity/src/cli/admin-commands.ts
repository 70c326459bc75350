import { parseArgs } from 'node:util';
import { presentTenant, presentToken, presentUser } from '../grpc/mappers.js';
import type { OfflineIdentity } from '../offline.js';

export const USAGE = `usage: npm run admin -- <command> [options]

commands:
  create-tenant --slug <slug> [--name <name>] [--domain <host> ...]
  create-user   --tenant <slug> --email <email> --name <name> --password-stdin
                [--owner] [--permissions orders:read,orders:write]
                The password comes from exactly one of: --password-stdin (first line of
                standard input), the environment variable ADMIN_USER_PASSWORD, or, when
                neither is given and standard input is a terminal, a prompt without echo.
                --password <password> still works but warns: the process list and the
                shell history show it.
  create-token  --tenant <slug> --email <email> --name <name> [--scopes orders:read,...]
                [--expires-at <ISO date>] [--ip-allowlist 10.0.0.0/8,...] [--rate-limit <n>]
  revoke-token  --tenant <slug> --id <token id>
  set-permissions --tenant <slug> --email <email> --permissions orders:read,... [--owner]
                replaces the user's permissions (and owner flag: without --owner the user is
                no longer an owner); gateways and outbound webhooks apply it at once
  list-tenants  every tenant with its domains
  list-users    --tenant <slug>
  list-tokens   --tenant <slug> [--email <email>]   unrevoked tokens (never their secrets)
  help          this text (also --help, -h)

environment: MONGO_URL (when unset: the system npm start runs, from .data/dev.json, or
<DEV_DATA_DIR>/dev.json), MONGO_DB (default identity), BASE_DOMAIN,
NATS_URL (revoke-token, set-permissions: the invalidation every gateway gets before the
command returns),
IDENTITY_SECRET_ENCRYPTION_KEY (required when NODE_ENV=production),
ADMIN_USER_PASSWORD (create-user's password, when not read from standard input).
Prints the result as JSON on stdout; errors as JSON on stderr. Exit status: 0 done,
1 refused (validation, not found, duplicate; or revoked but the gateways could not be
told at once: reason gateways_not_notified), 2 bad arguments, 78 bad environment.`;

/** Bad arguments: the process prints the message and the usage, and exits 2. */
export class UsageError extends Error {}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  slug: { type: 'string' },
  name: { type: 'string' },
  domain: { type: 'string', multiple: true },
  tenant: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  owner: { type: 'boolean' },
  permissions: { type: 'string' },
  scopes: { type: 'string' },
  'expires-at': { type: 'string' },
  'ip-allowlist': { type: 'string' },
  'rate-limit': { type: 'string' },
  id: { type: 'string' },
} as const;

/** Per command: required options, then the optional ones. */
const COMMANDS: Record<string, { required: string[]; optional: string[] }> = {
  'create-tenant': { required: ['slug'], optional: ['name', 'domain'] },
  'create-user': {
    // The password is required too, from one source: see passwordSource.
    required: ['tenant', 'email', 'name'],
    optional: ['password', 'password-stdin', 'owner', 'permissions'],
  },
  'create-token': {
    required: ['tenant', 'email', 'name'],
    optional: ['scopes', 'expires-at', 'ip-allowlist', 'rate-limit'],
  },
  'revoke-token': { required: ['tenant', 'id'], optional: [] },
  'set-permissions': { required: ['tenant', 'email', 'permissions'], optional: ['owner'] },
  'list-tenants': { required: [], optional: [] },
  'list-users': { required: ['tenant'], optional: [] },
  'list-tokens': { required: ['tenant'], optional: ['email'] },
};

export type Values = Record<string, string | boolean | string[] | undefined>;
/**
 * Where create-user's password comes from: the `--password` option (visible in the process
 * list: deprecated, warns), the first line of standard input (`--password-stdin`), the
 * environment variable ADMIN_USER_PASSWORD, or a prompt without echo on a terminal.
 */
export type PasswordSource = 'option' | 'stdin' | 'env' | 'prompt';
export type Parsed =
  | { help: true }
  | { help: false; command: string; values: Values; passwordSource?: PasswordSource };

/** The environment variable create-user reads its password from. */
export const PASSWORD_ENV = 'ADMIN_USER_PASSWORD';

export const PASSWORD_OPTION_WARNING =
  'warning: --password is visible in the process list and lands in the shell history; ' +
  `use --password-stdin (or ${PASSWORD_ENV}) instead`;

/** What the process around the command line offers: the environment, and whether stdin is a terminal. */
export interface Surroundings {
  env?: NodeJS.ProcessEnv;
  stdinIsTTY?: boolean;
}

/**
 * Checks everything that needs no database, so bad arguments fail before connecting.
 * For create-user, also decides where the password comes from (exactly one source).
 */
export function parseCommandLine(args: string[], surroundings: Surroundings = {}): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  const command = positionals[0];
  if (values.help || command === 'help') return { help: true };
  if (!command) throw new UsageError('a command is required');
  const spec = COMMANDS[command];
  if (!spec) throw new UsageError(`unknown command: ${command}`);
  if (positionals.length > 1)
    throw new UsageError(`unexpected argument: ${positionals.slice(1).join(' ')}`);
  const misplaced = Object.keys(values).filter(
    (key) => !spec.required.includes(key) && !spec.optional.includes(key),
  );
  if (misplaced.length > 0)
    throw new UsageError(
      `${command} does not take ${misplaced.map((key) => `--${key}`).join(', ')}`,
    );
  const missing = spec.required
    .filter((key) => {
      const value = (values as Values)[key];
      return typeof value !== 'string' || value.trim() === '';
    })
    .map((key) => `--${key}`);
  let passwordSource: PasswordSource | undefined;
  if (command === 'create-user') {
    const sources: PasswordSource[] = [];
    if (values.password !== undefined) sources.push('option');
    if (values['password-stdin']) sources.push('stdin');
    // Set but empty counts as not set, like an empty option.
    if (surroundings.env?.[PASSWORD_ENV]) sources.push('env');
    if (sources.length > 1)
      throw new UsageError(
        `create-user takes the password from one source, got ${sources
          .map(describeSource)
          .join(' and ')}`,
      );
    passwordSource = sources[0] ?? (surroundings.stdinIsTTY ? 'prompt' : undefined);
    if (passwordSource === 'option' && values.password!.trim() === '') missing.push('--password');
    if (passwordSource === undefined)
      missing.push(`a password (--password-stdin or ${PASSWORD_ENV})`);
  }
  if (missing.length > 0) throw new UsageError(`${command} needs ${missing.join(', ')}`);
  if (values.id !== undefined && !/^[1-9]\d*$/.test(values.id))
    throw new UsageError('--id must be a positive whole number');
  if (values['rate-limit'] !== undefined && !/^[1-9]\d*$/.test(values['rate-limit']))
    throw new UsageError('--rate-limit must be a positive whole number');
  if (values['expires-at'] !== undefined && Number.isNaN(Date.parse(values['expires-at'])))
    throw new UsageError('--expires-at must be an ISO 8601 date');
  return { help: false, command, values, ...(passwordSource && { passwordSource }) };
}

const describeSource = (source: PasswordSource) =>
  ({ option: '--password', stdin: '--password-stdin', env: PASSWORD_ENV, prompt: 'a prompt' })[
    source
  ];

const list = (value: string | undefined) =>
  value
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : [];

/** Thrown for a missing tenant or user: printed like a use case's refusal (exit 1). */
class NotFoundError extends Error {}

async function tenantId(identity: OfflineIdentity, slug: string): Promise<string> {
  const found = await identity.store.tenants.findBySlug(slug.toLowerCase());
  if (!found) throw new NotFoundError(`no tenant with slug ${slug}`);
  return found.tenant.tenant_id;
}

async function userId(identity: OfflineIdentity, tenant: string, email: string): Promise<number> {
  const user = await identity.store.users.findByEmail(tenant, email);
  if (!user) throw new NotFoundError(`no user ${email} in this tenant`);
  return user.id;
}

/** Runs a parsed command on identity's database through its use cases. */
export async function runCommand(
  command: string,
  values: Values,
  identity: OfflineIdentity,
): Promise<unknown> {
  const str = (key: string) =>
    typeof values[key] === 'string' ? (values[key] as string) : undefined;
  switch (command) {
    case 'create-tenant':
      return presentTenant(
        await identity.useCases.createTenant.execute({
          slug: str('slug')!,
          name: str('name'),
          customDomains: (values.domain as string[] | undefined) ?? [],
        }),
      );
    case 'create-user':
      return presentUser(
        await identity.useCases.createUser.execute(await tenantId(identity, str('tenant')!), {
          email: str('email')!,
          name: str('name')!,
          password: str('password')!,
          isOwner: values.owner === true,
          permissions: list(str('permissions')),
        }),
      );
    case 'create-token': {
      const tenant = await tenantId(identity, str('tenant')!);
      const user = await userId(identity, tenant, str('email')!);
      const expires = str('expires-at');
      const rate = str('rate-limit');
      const created = await identity.useCases.createToken.execute(tenant, user, {
        name: str('name')!,
        scopes: list(str('scopes')),
        expiresAt: expires ? new Date(expires) : undefined,
        ipAllowlist: list(str('ip-allowlist')),
        rateLimitPerMinute: rate ? Number(rate) : undefined,
      });
      return { token: presentToken(created.token), plain_text_token: created.plainTextToken };
    }
    case 'revoke-token': {
      const tenant = await tenantId(identity, str('tenant')!);
      const id = Number(str('id'));
      await identity.useCases.revokeToken.execute(tenant, undefined, id);
      return { revoked: id };
    }
    case 'set-permissions': {
      const tenant = await tenantId(identity, str('tenant')!);
      const user = await userId(identity, tenant, str('email')!);
      return presentUser(
        await identity.useCases.setUserPermissions.execute(tenant, user, {
          isOwner: values.owner === true,
          permissions: list(str('permissions')),
        }),
      );
    }
    case 'list-tenants':
      return { tenants: (await identity.store.tenants.list()).map(presentTenant) };
    case 'list-users': {
      const tenant = await tenantId(identity, str('tenant')!);
      return { users: (await identity.store.users.list(tenant)).map(presentUser) };
    }
    case 'list-tokens': {
      const tenant = await tenantId(identity, str('tenant')!);
      const email = str('email');
      const owner = email === undefined ? undefined : await userId(identity, tenant, email);
      const [tokens, users] = await Promise.all([
        identity.store.tokens.listUnrevoked(tenant, owner),
        identity.store.users.list(tenant),
      ]);
      const emails = new Map(users.map((user) => [user.id, user.email]));
      return {
        tokens: tokens.map((token) => ({
          ...presentToken(token),
          user_id: token.user_id,
          user_email: emails.get(token.user_id),
        })),
      };
    }
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

export { NotFoundError };
