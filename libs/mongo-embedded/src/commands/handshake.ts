import type { Document } from 'bson';
import { queryExecutor } from '../storage/query-exec.js';
import { MAX_BSON_SIZE, MAX_MESSAGE_SIZE } from '../wire/constants.js';
import type { CommandHandler } from './context.js';

// maxWireVersion 21 (MongoDB 7.0) is what driver 6 expects of a modern server. No topologyVersion is
// sent on purpose: it would make the driver switch to streaming (exhaust) hello monitoring.
const hello: CommandHandler = (_cmd, ctx) => ({
  helloOk: true,
  ismaster: true,
  isWritablePrimary: true,
  maxBsonObjectSize: MAX_BSON_SIZE,
  maxMessageSizeBytes: MAX_MESSAGE_SIZE,
  maxWriteBatchSize: 100_000,
  localTime: new Date(),
  logicalSessionTimeoutMinutes: 30,
  connectionId: ctx.connectionId,
  minWireVersion: 0,
  maxWireVersion: 21,
  readOnly: false,
  ok: 1,
});

const ok: CommandHandler = () => ({ ok: 1 });

const buildInfo: CommandHandler = () => ({
  version: '7.0.0',
  gitVersion: 'mongo-embedded',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: MAX_BSON_SIZE,
  storageEngines: ['embedded'],
  modules: [],
  ok: 1,
});

const getParameter: CommandHandler = (cmd) => {
  const out: Document = { ok: 1 };
  if (cmd.featureCompatibilityVersion !== undefined || cmd.getParameter === '*') {
    out.featureCompatibilityVersion = { version: '7.0' };
  }
  return out;
};

export const handshakeCommands: Record<string, CommandHandler> = {
  hello,
  ismaster: hello,
  isMaster: hello,
  ping: ok,
  buildInfo,
  buildinfo: buildInfo,
  getParameter,
  endSessions: ok,
  killAllSessions: ok,
  killSessions: ok,
  refreshSessions: ok,
  getCmdLineOpts: () => ({ argv: ['mongo-embedded'], parsed: {}, ok: 1 }),
  hostInfo: () => ({ system: { hostname: 'localhost' }, os: { type: process.platform }, ok: 1 }),
  whatsmyuri: () => ({ you: '127.0.0.1', ok: 1 }),
  serverStatus: () => ({
    ok: 1,
    host: 'localhost',
    version: '7.0.0',
    process: 'mongo-embedded',
    uptime: process.uptime(),
    metrics: { queryExecutor: { ...queryExecutor } },
  }),
  getLog: () => ({ totalLinesWritten: 0, log: [], ok: 1 }),
  getFreeMonitoringStatus: () => ({ state: 'disabled', ok: 1 }),
  configureFailPoint: (cmd, ctx) => ctx.failPoints.configure(cmd),
};
