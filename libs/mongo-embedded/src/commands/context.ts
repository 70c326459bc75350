import type { Document } from 'bson';
import { invalidNamespace } from '../errors.js';
import type { Catalog } from '../storage/catalog.js';
import type { StreamedReply } from './batch-reply.js';
import type { CursorStore } from './cursors.js';
import type { FailPoints } from './fail-points.js';
import type { Logger } from '../logger.js';

export interface CommandContext {
  catalog: Catalog;
  cursors: CursorStore;
  db: string;
  connectionId: number;
  failPoints: FailPoints;
  /** The server's log (a write that fails validation under `validationAction: 'warn'` is noted). */
  logger?: Logger;
}

/**
 * Handlers are synchronous on purpose: a command runs start-to-finish without yielding, which
 * makes it atomic. The one exception is a cursor's batch (`StreamedReply`): its documents are
 * selected at once, then projected and encoded in slices between which other commands run.
 */
export type CommandHandler = (cmd: Document, ctx: CommandContext) => Document | StreamedReply;

export function collectionName(cmd: Document, name: string): string {
  const v = cmd[name];
  if (typeof v !== 'string' || v.length === 0) {
    throw invalidNamespace(`collection name has invalid type ${typeof v}`);
  }
  return v;
}
