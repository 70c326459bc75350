import type { Document } from 'bson';
import { badValue, CommandError } from '../errors.js';
import { notImplemented } from './refusals.js';

/**
 * MongoDB's test fail points (`configureFailPoint`, which a mongod offers with
 * `enableTestCommands`): `failCommand`, to make named commands fail, close the connection or
 * block, and `maxTimeAlwaysTimeOut`, to make every command with `maxTimeMS` time out. Other fail
 * points are not implemented (238).
 */
export interface FailAction {
  /** Answer this instead of running the command. */
  error?: Document;
  /** Run the command, then add this `writeConcernError` to its reply. */
  writeConcernError?: Document;
  closeConnection?: boolean;
  /** Hold the connection this long before answering. */
  blockMs?: number;
}

type Mode =
  | { kind: 'off' }
  | { kind: 'always' }
  | { kind: 'times'; left: number }
  | { kind: 'skip'; skip: number };

interface FailCommand {
  mode: Mode;
  data: Document;
}

function parseMode(mode: unknown): Mode {
  if (mode === 'off') return { kind: 'off' };
  if (mode === 'alwaysOn') return { kind: 'always' };
  if (mode && typeof mode === 'object') {
    const m = mode as Document;
    if (typeof m.times === 'number')
      return m.times > 0 ? { kind: 'times', left: m.times } : { kind: 'off' };
    if (typeof m.skip === 'number') return { kind: 'skip', skip: m.skip };
    if (m.activationProbability === 1) return { kind: 'always' };
  }
  throw badValue(`Invalid fail point mode: ${JSON.stringify(mode)}`);
}

export class FailPoints {
  private failCommand: FailCommand | undefined;
  private maxTimeAlwaysTimeOut = false;

  configure(cmd: Document): Document {
    const name = cmd.configureFailPoint;
    const mode = parseMode(cmd.mode);
    if (name === 'maxTimeAlwaysTimeOut') {
      this.maxTimeAlwaysTimeOut = mode.kind !== 'off';
      return { count: 0, ok: 1 };
    }
    if (name !== 'failCommand') throw notImplemented(`The fail point ${String(name)}`);
    const data = (cmd.data ?? {}) as Document;
    if (mode.kind !== 'off' && !Array.isArray(data.failCommands))
      throw badValue("'data' must contain a 'failCommands' array");
    this.failCommand = mode.kind === 'off' ? undefined : { mode, data };
    return { count: 0, ok: 1 };
  }

  /** What a fail point does to this command (from a client named `appName`), if anything. */
  actionFor(name: string, cmd: Document, appName: string | undefined): FailAction | undefined {
    if (name === 'configureFailPoint') return undefined;
    if (this.maxTimeAlwaysTimeOut && cmd.maxTimeMS !== undefined)
      return {
        error: new CommandError(
          50,
          'MaxTimeMSExpired',
          'operation exceeded time limit',
        ).toDocument(),
      };
    const fp = this.failCommand;
    if (!fp || !(fp.data.failCommands as unknown[]).includes(name)) return undefined;
    if (fp.data.appName !== undefined && fp.data.appName !== appName) return undefined;
    if (
      fp.data.namespace !== undefined &&
      fp.data.namespace !== `${String(cmd.$db)}.${String(cmd[name])}`
    )
      return undefined;
    if (!this.fires(fp)) return undefined;
    return describe(fp.data);
  }

  private fires(fp: FailCommand): boolean {
    const { mode } = fp;
    if (mode.kind === 'skip' && mode.skip > 0) {
      mode.skip--;
      return false;
    }
    if (mode.kind === 'times' && --mode.left === 0) this.failCommand = undefined;
    return true;
  }
}

function describe(data: Document): FailAction {
  const action: FailAction = {};
  if (data.closeConnection === true) action.closeConnection = true;
  if (data.blockConnection === true) action.blockMs = Number(data.blockTimeMS ?? 0);
  if (typeof data.errorCode === 'number') {
    action.error = {
      ok: 0,
      errmsg: "Failing command via 'failCommand' failpoint",
      code: data.errorCode,
      ...(Array.isArray(data.errorLabels) ? { errorLabels: data.errorLabels } : {}),
      ...(data.errInfo ? { errInfo: data.errInfo } : {}),
    };
  }
  if (data.writeConcernError && typeof data.writeConcernError === 'object')
    action.writeConcernError = data.writeConcernError as Document;
  return action;
}
