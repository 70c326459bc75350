import type { Document } from 'bson';
import { commandNotFound, illegalOperation, toCommandError } from '../errors.js';
import { adminCommands } from './admin.js';
import { aggregateCommands } from './aggregate.js';
import type { StreamedReply } from './batch-reply.js';
import type { CommandContext, CommandHandler } from './context.js';
import { collModCommands } from './coll-mod.js';
import { diagnosticCommands } from './diagnostics.js';
import { explainCommands } from './explain.js';
import { handshakeCommands } from './handshake.js';
import { validateAsMongoDB } from './mongodb-refusals.js';
import { indexCommands } from './indexes.js';
import { namespaceCommands } from './namespaces.js';
import { readCommands } from './read.js';
import { notImplemented, UNSUPPORTED_COMMANDS, validateCommand } from './refusals.js';
import { writeCommands } from './write.js';
import { withVariables } from '../storage/mingo.js';

const handlers = new Map<string, CommandHandler>(
  Object.entries({
    ...handshakeCommands,
    ...adminCommands,
    ...indexCommands,
    ...readCommands,
    ...writeCommands,
    ...aggregateCommands,
    ...namespaceCommands,
    ...collModCommands,
    ...diagnosticCommands,
    ...Object.fromEntries(
      UNSUPPORTED_COMMANDS.map((name): [string, CommandHandler] => [
        name,
        () => {
          throw notImplemented(`The ${name} command`);
        },
      ]),
    ),
    ...explainCommands,
  }),
);

const TRANSACTION_COMMANDS = new Set(['abortTransaction', 'commitTransaction']);
const NO_TXN_MESSAGE = 'Transaction numbers are only allowed on a replica set member or mongos';

/** The command name is the first key that is not a generic argument such as `$db` or `lsid`. */
export function commandName(cmd: Document): string | undefined {
  return Object.keys(cmd)[0];
}

/**
 * Runs one command to completion and always returns a reply document (errors become `ok: 0`),
 * or the batch of a cursor, to be built in slices.
 */
export function executeCommand(
  cmd: Document,
  ctx: Omit<CommandContext, 'db'>,
): Document | StreamedReply {
  const name = commandName(cmd);
  try {
    if (!name) throw commandNotFound('');
    // Standalone servers cannot run transactions; answer as mongod does rather than pretending.
    if (TRANSACTION_COMMANDS.has(name) || cmd.startTransaction || cmd.autocommit === false) {
      throw illegalOperation(NO_TXN_MESSAGE);
    }
    const handler = handlers.get(name);
    if (!handler) throw commandNotFound(name);
    const db = typeof cmd.$db === 'string' ? cmd.$db : 'admin';
    validateAsMongoDB(name, cmd, ctx.catalog, db);
    validateCommand(name, cmd, ctx.catalog, db);
    return withVariables(cmd.let, () => handler(cmd, { ...ctx, db }));
  } catch (err) {
    return toCommandError(err).toDocument();
  }
}
