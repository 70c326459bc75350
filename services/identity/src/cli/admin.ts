/**
 * Operator commands, straight on identity's database through its use cases.
 * `npm run admin -- --help` prints the usage (cli/admin-commands.ts holds it).
 *
 *   npm run admin -- create-tenant --slug acme [--name "Acme"] [--domain shop.acme.test ...]
 *   npm run admin -- create-user --tenant acme --email a@acme.test --name Ann --password '...' [--owner] [--permissions orders:read,orders:write]
 *   npm run admin -- create-token --tenant acme --email a@acme.test --name ci [--scopes orders:read,...] [--expires-at 2030-01-01T00:00:00Z] [--ip-allowlist 10.0.0.0/8,...] [--rate-limit 100]
 *   npm run admin -- revoke-token --tenant acme --id 12
 *
 * Reads MONGO_URL, MONGO_DB (default identity), BASE_DOMAIN and
 * IDENTITY_SECRET_ENCRYPTION_KEY; prints what it made as JSON.
 */
import { describeCallError } from '@inventory/platform';
import { readSecretEncryptionKey } from '../config.js';
import { openOffline } from '../offline.js';
import {
  NotFoundError,
  parseCommandLine,
  runCommand,
  USAGE,
  UsageError,
} from './admin-commands.js';

const printError = (error: string, extra: Record<string, unknown> = {}) =>
  console.error(JSON.stringify({ error, ...extra }, null, 2));

let parsed;
try {
  parsed = parseCommandLine(process.argv.slice(2));
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

const mongoUrl = process.env.MONGO_URL;
let secretEncryptionKey: string;
try {
  if (!mongoUrl) throw new Error('MONGO_URL is required');
  secretEncryptionKey = readSecretEncryptionKey(process.env);
} catch (error) {
  printError((error as Error).message);
  process.exit(78);
}

const identity = await openOffline({
  mongoUrl,
  dbName: process.env.MONGO_DB ?? 'identity',
  baseDomain: process.env.BASE_DOMAIN,
  secretEncryptionKey,
});
try {
  const result = await runCommand(parsed.command, parsed.values, identity);
  console.log(JSON.stringify(result, null, 2));
} catch (error) {
  if (error instanceof NotFoundError) {
    printError(error.message, { reason: 'not_found' });
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
