import net from 'node:net';
import type { Document } from 'bson';
import { commandName, executeCommand } from './commands/registry.js';
import { StreamedReply } from './commands/batch-reply.js';
import { CursorStore } from './commands/cursors.js';
import { toCommandError } from './errors.js';
import { FailPoints, type FailAction } from './commands/fail-points.js';
import type { Logger } from './logger.js';
import type { Catalog } from './storage/catalog.js';
import type { Journal } from './storage/journal.js';
import { FramingError, MessageFramer } from './wire/framing.js';
import { ProtocolError, parseMessage, readHeader, type ParsedMessage } from './wire/messages.js';
import { encodeBody, encodeOpMsg, opMsgOf, opReplyOf } from './wire/replies.js';
import { OP_MSG } from './wire/constants.js';

export interface ServerDeps {
  catalog: Catalog;
  journal?: Journal;
  logger: Logger;
  /** A compaction (a new snapshot, written a slice per turn) starts once the journal grows past this. */
  compactBytes: number;
}

/**
 * Everything between receiving a complete message and writing its reply is synchronous, so no
 * other connection's command can interleave: each command is atomic with respect to all others.
 * Only a cursor's batch is built over several turns (its documents were selected at once).
 */
export function createWireServer(deps: ServerDeps): net.Server {
  const cursors = new CursorStore();
  const failPoints = new FailPoints();
  let nextConnectionId = 1;

  const handle = (socket: net.Socket, conn: ConnectionState, raw: Buffer): void => {
    const { connectionId } = conn;
    let parsed;
    try {
      parsed = parseMessage(raw);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      // A malformed OP_MSG still has a usable header, so the client learns why; anything else is dropped.
      const header = readHeader(raw);
      if (header.opCode === OP_MSG) {
        send(
          socket,
          encodeOpMsg(header.requestId, {
            ok: 0,
            errmsg: err.message,
            code: 22,
            codeName: 'InvalidBSON',
          }),
        );
        return;
      }
      deps.logger.warn(`connection ${connectionId}: ${err.message}; closing`);
      socket.destroy();
      return;
    }
    const cmd = parsed.command;
    const name = commandName(cmd) ?? '';
    if (HANDSHAKES.has(name)) conn.appName = appNameOf(cmd) ?? conn.appName;
    let action = conn.released ?? failPoints.actionFor(name, cmd, conn.appName);
    conn.released = undefined;
    if (action?.closeConnection) {
      socket.destroy();
      return;
    }
    if (action?.blockMs) {
      // Held, with every later message of this connection, until the block ends.
      conn.blocked = [raw];
      conn.released = { ...action, blockMs: undefined };
      setTimeout(() => release(socket, conn), action.blockMs);
      return;
    }
    const reply =
      action?.error ??
      executeCommand(cmd, {
        catalog: deps.catalog,
        cursors,
        connectionId,
        failPoints,
        logger: deps.logger,
      });
    if (reply instanceof StreamedReply) {
      stream(socket, conn, parsed, reply);
      return;
    }
    if (action?.writeConcernError && reply.ok) reply.writeConcernError = action.writeConcernError;
    action = undefined;
    answer(socket, parsed, encodeBody(reply));
  };

  const answer = (socket: net.Socket, parsed: ParsedMessage, body: Uint8Array): void => {
    // Unacknowledged (w:0) writes have no reply to hold back but still reach the journal promptly.
    scheduleCommit();
    if (parsed.kind === 'query') send(socket, opReplyOf(parsed.header.requestId, body));
    else if (!parsed.moreToCome) send(socket, opMsgOf(parsed.header.requestId, body));
  };

  /**
   * A cursor's batch, built a slice per turn of the event loop: between slices other connections'
   * commands run (ADR 0617). Later messages of this connection wait for the reply, as they would
   * behind any command.
   */
  const stream = (
    socket: net.Socket,
    conn: ConnectionState,
    parsed: ParsedMessage,
    reply: StreamedReply,
  ): void => {
    conn.blocked = [];
    const step = (): void => {
      if (socket.destroyed) {
        reply.steps.return?.();
        return;
      }
      let body: Uint8Array;
      try {
        const next = reply.steps.next();
        if (!next.done) {
          setImmediate(step);
          return;
        }
        body = next.value;
      } catch (err) {
        body = encodeBody(toCommandError(err).toDocument());
      }
      answer(socket, parsed, body);
      release(socket, conn);
    };
    step();
  };

  // Group commit. With a journal, replies are held back until the journal records of every command
  // executed so far have been written (and fdatasynced under `always`). Commands still run one at a
  // time and to completion as they arrive; only the flush is shared, once per turn of the event loop,
  // by all commands that arrived in that turn, on any connection. A reply is therefore never sent
  // before the writes of its own command (or of any command whose effects it could have observed)
  // are in the journal, while N concurrent writers cost one write + fdatasync instead of N.
  let held: { socket: net.Socket; reply: Buffer }[] = [];
  let commitScheduled = false;

  const send = (socket: net.Socket, reply: Buffer): void => {
    // Nothing waiting for the journal (e.g. a read with no write in flight): nothing to wait for.
    if (!deps.journal || (held.length === 0 && !deps.journal.hasPending)) {
      socket.write(reply);
      return;
    }
    held.push({ socket, reply });
    scheduleCommit();
  };

  const scheduleCommit = (): void => {
    if (!deps.journal || commitScheduled) return;
    commitScheduled = true;
    setImmediate(commit);
  };

  const commit = (): void => {
    commitScheduled = false;
    const batch = held;
    held = [];
    try {
      commitJournal();
    } catch (err) {
      // Not durable, so not acknowledged: drop the connections instead of replying.
      deps.logger.error(`journal: ${(err as Error).stack ?? String(err)}`);
      for (const { socket } of batch) socket.destroy();
      return;
    }
    for (const { socket, reply } of batch) if (!socket.destroyed) socket.write(reply);
  };

  const commitJournal = (): void => {
    if (!deps.journal) return;
    deps.journal.flush();
    // The journal starts one compaction at a time; the call is a no-op while one runs.
    if (deps.journal.size > deps.compactBytes)
      deps.journal.startCompaction(deps.catalog.snapshot());
  };

  const receive = (socket: net.Socket, conn: ConnectionState, m: Buffer): void => {
    if (conn.blocked) {
      conn.blocked.push(m);
      return;
    }
    try {
      handle(socket, conn, m);
    } catch (err) {
      // Last line of defence: a bug in one command must not take the whole server down.
      deps.logger.error(`connection ${conn.connectionId}: ${(err as Error).stack ?? String(err)}`);
      socket.destroy();
    }
  };

  const release = (socket: net.Socket, conn: ConnectionState): void => {
    const held = conn.blocked ?? [];
    conn.blocked = undefined;
    for (const m of held) if (!socket.destroyed) receive(socket, conn, m);
  };

  return net.createServer((socket) => {
    const conn: ConnectionState = { connectionId: nextConnectionId++ };
    const { connectionId } = conn;
    const framer = new MessageFramer();
    socket.setNoDelay(true);
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      let messages: Buffer[];
      try {
        messages = framer.push(chunk);
      } catch (err) {
        if (!(err instanceof FramingError)) throw err;
        deps.logger.warn(`connection ${connectionId}: ${err.message}; closing`);
        socket.destroy();
        return;
      }
      for (const m of messages) {
        if (socket.destroyed) return;
        receive(socket, conn, m);
      }
    });
  });
}

interface ConnectionState {
  connectionId: number;
  /** The client's `appName`, from its handshake (fail points can target it). */
  appName?: string;
  /** Messages held while a fail point blocks the connection, the blocked one first. */
  blocked?: Buffer[];
  /** What the fail point still does to the blocked command once the block ends. */
  released?: FailAction;
}

const HANDSHAKES = new Set(['hello', 'isMaster', 'ismaster']);

const appNameOf = (cmd: Document): string | undefined => {
  const name = (cmd.client as Document | undefined)?.application?.name as unknown;
  return typeof name === 'string' ? name : undefined;
};

export type { Document };
