/**
 * Operator commands, straight on identity's database through its use cases.
 * `npm run admin -- --help` prints the usage (cli/admin-commands.ts holds it).
 *
 *   npm run admin -- create-tenant --slug acme [--name "Acme"] [--domain shop.acme.test ...]
 *   printf '%s\n' "$PW" | npm run admin -- create-user --tenant acme --email a@acme.test --name Ann --password-stdin [--owner] [--permissions orders:read,orders:write]
 *   npm run admin -- create-token --tenant acme --email a@acme.test --name ci [--scopes orders:read,...] [--expires-at 2030-01-01T00:00:00Z] [--ip-allowlist 10.0.0.0/8,...] [--rate-limit 100]
 *   npm run admin -- revoke-token --tenant acme --id 12
 *   npm run admin -- list-tenants | list-users --tenant acme | list-tokens --tenant acme [--email a@acme.test]
 *
 * create-user's password comes from exactly one of --password-stdin (first line of stdin),
 * ADMIN_USER_PASSWORD, or a prompt without echo when stdin is a terminal; `--password '...'`
 * still works but warns on stderr (the process list and shell history show it).
 *
 * Reads MONGO_URL, MONGO_DB (default identity), BASE_DOMAIN and
 * IDENTITY_SECRET_ENCRYPTION_KEY; revoke-token and set-permissions also NATS_URL, to publish the
 * invalidation every gateway gets before the command returns. Without MONGO_URL it works on
 * the system `npm start` runs (MongoDB, NATS and base domain from .data/dev.json).
 * Prints what it made as JSON.
 */
// Only the argument parsing is imported up front: bad arguments (exit 2) and --help answer
// without loading the platform, the database driver or NATS; the rest is imported after.
import {
  NotFoundError,
  parseCommandLine,
  PASSWORD_OPTION_WARNING,
  runCommand,
  USAGE,
  UsageError,
} from './admin-commands.js';
import { readDevConnection } from './dev-file.js';
import { PromptAbandoned, readPassword } from './password-input.js';

const printError = (error: string, extra: Record<string, unknown> = {}) =>
  console.error(JSON.stringify({ error, ...extra }, null, 2));

let parsed;
try {
  parsed = parseCommandLine(process.argv.slice(2), {
    env: process.env,
    stdinIsTTY: process.stdin.isTTY === true,
  });
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  printError(error.message);
  console.error(`\n${USAGE}`);
  process.exit(2);
}
if (parsed.help) {
  console.log(USAGE);
  process.exit(0);
}
if (parsed.passwordSource === 'option') console.error(PASSWORD_OPTION_WARNING);

const [
  { describeCallError },
  { readSecretEncryptionKey },
  { GatewaysNotNotified },
  { openOffline },
] = await Promise.all([
  import('@inventory/platform'),
  import('../config.js'),
  import('../events/token-events.js'),
  import('../offline.js'),
]);

const env: NodeJS.ProcessEnv = { ...process.env };
let secretEncryptionKey: string;
try {
  if (!env.MONGO_URL) {
    const dev = readDevConnection(env);
    if (!dev)
      throw new Error('MONGO_URL is required (or run npm start, which writes .data/dev.json)');
    // What is set explicitly wins; the file fills only what is missing.
    for (const [name, value] of Object.entries(dev.env)) if (value && !env[name]) env[name] = value;
    console.error(`MONGO_URL not set: using the system of ${dev.path} (npm start)`);
  }
  secretEncryptionKey = readSecretEncryptionKey(env);
} catch (error) {
  printError((error as Error).message);
  process.exit(78);
}

// The password is read after the environment checks (no prompt that then fails on MONGO_URL),
// before connecting; its validation stays with the use case.
const values = { ...parsed.values };
if (parsed.passwordSource) {
  try {
    values.password = await readPassword(parsed.passwordSource, parsed.values);
  } catch (error) {
    if (!(error instanceof PromptAbandoned)) throw error;
    printError(error.message);
    process.exit(2);
  }
}

const NOTIFYING_COMMANDS = new Set(['revoke-token', 'set-permissions']);
const identity = await openOffline({
  mongoUrl: env.MONGO_URL!,
  dbName: env.MONGO_DB ?? 'identity',
  baseDomain: env.BASE_DOMAIN,
  secretEncryptionKey,
  // A revocation or a permission change must reach the gateways before the command returns, as
  // the API's does.
  natsUrl: NOTIFYING_COMMANDS.has(parsed.command) ? env.NATS_URL || undefined : undefined,
});
try {
  const result = await runCommand(parsed.command, values, identity);
  console.log(JSON.stringify(result, null, 2));
} catch (error) {
  if (error instanceof NotFoundError) {
    printError(error.message, { reason: 'not_found' });
  } else if (error instanceof GatewaysNotNotified) {
    printError(error.message, { reason: 'gateways_not_notified' });
  } else {
    const described = describeCallError(error);
    printError(described.message, {
      reason: described.reason,
      fields: described.fieldViolations,
    });
  }
  process.exitCode = 1;
} finally {
  await identity.close();
}
