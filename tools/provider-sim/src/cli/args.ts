import { parseArgs } from 'node:util';
import type { ProviderSimOptions } from '../server.js';

export const DEFAULT_DEV_KEY = 'dev_provider_key_123456';

export const USAGE = `Usage: provider-sim [--port 4010] [--host 127.0.0.1] [--key KEY]... [--quota N]
                    [--max-daily N] [--webhook-url URL] [--rate-limit N] [--quiet]
  --key          API key accepted in the 17token header (repeatable; default ${DEFAULT_DEV_KEY})
  --quota        quota_total of every key (default 1000)
  --max-daily    max_track_daily of every key (default 10000)
  --webhook-url  push TRACKING_UPDATED / TRACKING_STOPPED here automatically
  --rate-limit   requests per second per key (default 3)
  --quiet        no request log`;

function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`--${name} must be a non-negative integer, got '${value}'`);
  return n;
}

/** CLI flags to simulator options; throws on bad input. `help` asks for the usage text. */
export function parseCliArgs(
  argv: string[],
): { help: true } | { help: false; options: ProviderSimOptions } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      key: { type: 'string', multiple: true },
      quota: { type: 'string' },
      'max-daily': { type: 'string' },
      'webhook-url': { type: 'string' },
      'rate-limit': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true };
  const quotaTotal = int('quota', values.quota);
  const maxTrackDaily = int('max-daily', values['max-daily']);
  const keys = (values.key?.length ? values.key : [DEFAULT_DEV_KEY]).map((key) => ({
    key,
    ...(quotaTotal !== undefined && { quotaTotal }),
    ...(maxTrackDaily !== undefined && { maxTrackDaily }),
    ...(values['webhook-url'] && { webhookUrl: values['webhook-url'] }),
  }));
  const port = int('port', values.port);
  const rateLimit = int('rate-limit', values['rate-limit']);
  return {
    help: false,
    options: {
      keys,
      port: port ?? 4010,
      host: values.host ?? '127.0.0.1',
      logger: !values.quiet,
      ...(rateLimit !== undefined && { rateLimitPerSecond: rateLimit }),
    },
  };
}
