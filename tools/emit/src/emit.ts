import { ensureStream, EventPublisher } from '@inventory/platform';
import { connect } from 'nats';
import { parseArgs, UsageError } from './args.js';
import type { EmittableEvent } from './emittable-event.js';
import { EMITTABLE_EVENTS } from './events/index.js';
import { resolveTarget } from './target.js';

export interface EmitIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  out(line: string): void;
  err(line: string): void;
}

/** Exit codes: 0 published, 2 bad usage (unknown event, bad data, no tenant), 1 could not publish. */
export const EXIT_USAGE = 2;

export function helpText(events: EmittableEvent[] = EMITTABLE_EVENTS): string {
  return [
    "usage: npm run emit -- <event-name> [--tenant <slug>] --data '<json>'",
    '',
    'Publishes one event onto the bus of a running system (npm start). The tenant defaults to',
    'the development tenant; NATS comes from NATS_URL or <DEV_DATA_DIR or .data>/dev.json.',
    '',
    'events:',
    ...events.map((event) => `  ${event.name}\n      ${event.description}`),
  ].join('\n');
}

/** The whole command; returns the exit code. */
export async function runEmit(
  argv: string[],
  io: EmitIo,
  events = EMITTABLE_EVENTS,
): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.help) {
      io.out(helpText(events));
      return 0;
    }
    if (!args.eventName) throw new UsageError('missing <event-name>; --help lists them');
    const event = events.find((candidate) => candidate.name === args.eventName);
    if (!event)
      throw new UsageError(
        `unknown event "${args.eventName}"; known: ${events.map((candidate) => candidate.name).join(', ')}`,
      );
    if (args.data === undefined)
      throw new UsageError(`--data '<json>' is required for ${event.name}`);
    let json: unknown;
    try {
      json = JSON.parse(args.data);
    } catch (error) {
      throw new UsageError(`--data is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = event.data.safeParse(json);
    if (!parsed.success)
      throw new UsageError(
        `invalid data for ${event.name}: ${parsed.error.issues
          .map((issue) => `${issue.path.join('.') || '(data)'}: ${issue.message}`)
          .join('; ')}`,
      );
    const target = await resolveTarget(args.tenant, io.env, io.cwd);
    const nats = await connect({ servers: target.natsUrl, name: 'emit', timeout: 5_000 });
    try {
      await ensureStream(await nats.jetstreamManager(), event.stream);
      const publisher = new EventPublisher(nats.jetstream());
      const eventId = await publisher.publish(event.type, {
        tenantId: target.tenantId,
        payload: parsed.data,
      });
      io.out(
        JSON.stringify({
          subject: event.type.subject,
          event_id: eventId,
          stream: event.stream.name,
          tenant_id: target.tenantId,
        }),
      );
      return 0;
    } finally {
      await nats.drain();
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`emit: ${error.message}`);
      return EXIT_USAGE;
    }
    io.err(`emit: could not publish: ${(error as Error).message}`);
    return 1;
  }
}
