/** The command line of `npm run emit -- <event-name> [--tenant <slug>] --data '<json>'`. */
export interface EmitArgs {
  help: boolean;
  eventName?: string;
  tenant?: string;
  data?: string;
}

export class UsageError extends Error {}

export function parseArgs(argv: string[]): EmitArgs {
  const args: EmitArgs = { help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === '--help' || arg === '-h') args.help = true;
    else if (arg === '--tenant') args.tenant = value();
    else if (arg.startsWith('--tenant=')) args.tenant = arg.slice('--tenant='.length);
    else if (arg === '--data') args.data = value();
    else if (arg.startsWith('--data=')) args.data = arg.slice('--data='.length);
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else if (args.eventName === undefined) args.eventName = arg;
    else throw new UsageError(`unexpected argument ${arg}`);
  }
  return args;
}
