import mongoose from 'mongoose';
import { httpCall, type HttpResponse } from '../fixtures/http.js';
import type { LaunchedSystem } from './launcher.js';

/** What a fault does to one of the launcher's processes (matched by its command line). */
export interface Fault {
  name: string;
  /** The part's name in the launcher's log (`[dev] <part> restarted`). */
  part: string;
  /** A fragment of the process's command line, e.g. `services/activity/src/main.ts`. */
  process: string;
  action: 'freeze' | 'kill';
  /** The request that must answer a JSON 503 during the outage and 2xx after it. */
  probe: ProbeName;
}

/** How many times the launcher's supervisor says it restarted `part`. */
const restartCount = (output: string, part: string) =>
  output.split(`[dev] ${part} restarted`).length - 1;

export type ProbeName = 'user' | 'channels' | 'activity' | 'webhook' | 'subscriptions' | 'readyz';

export const ALL_FAULTS: Fault[] = [
  {
    part: 'parcel-tracking',
    name: 'freeze parcel-tracking',
    process: 'services/parcel-tracking/src/main.ts',
    action: 'freeze',
    probe: 'channels',
  },
  {
    part: 'parcel-tracking',
    name: 'kill parcel-tracking',
    process: 'services/parcel-tracking/src/main.ts',
    action: 'kill',
    probe: 'channels',
  },
  {
    part: 'activity',
    name: 'freeze activity',
    process: 'services/activity/src/main.ts',
    action: 'freeze',
    probe: 'activity',
  },
  {
    part: 'activity',
    name: 'kill activity',
    process: 'services/activity/src/main.ts',
    action: 'kill',
    probe: 'activity',
  },
  {
    part: 'identity',
    name: 'freeze identity',
    process: 'services/identity/src/main.ts',
    action: 'freeze',
    probe: 'readyz',
  },
  {
    part: 'identity',
    name: 'kill identity',
    process: 'services/identity/src/main.ts',
    action: 'kill',
    probe: 'readyz',
  },
  {
    part: 'webhook-ingest',
    name: 'freeze webhook-ingest',
    process: 'services/webhook-ingest/src/main.ts',
    action: 'freeze',
    probe: 'webhook',
  },
  {
    part: 'webhook-ingest',
    name: 'kill webhook-ingest',
    process: 'services/webhook-ingest/src/main.ts',
    action: 'kill',
    probe: 'webhook',
  },
  {
    part: 'outbound-delivery',
    name: 'freeze outbound-delivery',
    process: 'services/outbound-delivery/src/main.ts',
    action: 'freeze',
    probe: 'subscriptions',
  },
  {
    part: 'outbound-delivery',
    name: 'kill outbound-delivery',
    process: 'services/outbound-delivery/src/main.ts',
    action: 'kill',
    probe: 'subscriptions',
  },
  {
    part: 'redis',
    name: 'freeze redis',
    process: 'redis-server',
    action: 'freeze',
    probe: 'readyz',
  },
  { part: 'redis', name: 'kill redis', process: 'redis-server', action: 'kill', probe: 'readyz' },
  { part: 'nats', name: 'freeze nats', process: 'nats-server', action: 'freeze', probe: 'readyz' },
  { part: 'nats', name: 'kill nats', process: 'nats-server', action: 'kill', probe: 'readyz' },
  {
    part: 'mongo',
    name: 'freeze mongo',
    process: 'mongo-embedded/src/cli/main.ts',
    action: 'freeze',
    probe: 'channels',
  },
  {
    part: 'mongo',
    name: 'kill mongo',
    process: 'mongo-embedded/src/cli/main.ts',
    action: 'kill',
    probe: 'readyz',
  },
];

export interface FaultFigures {
  fault: string;
  /** From the fault to the probe's first JSON 503 (null: none seen within the cap). */
  firstUnavailableMs: number | null;
  /** From the thaw (freeze) or the kill (the supervisor restarts it) to the probe's first 2xx. */
  recoveryMs: number | null;
  /** For a kill: the launcher's supervisor restarted the part. */
  restarted: boolean;
}

export interface FaultRun {
  figures: FaultFigures[];
  requests: number;
  /** Load answers that were 5xx but not a JSON 503 in the specification's shape, or no answer. */
  badAnswers: string[];
  acknowledgedWebhooks: number;
  lostWebhooks: number;
}

/** Longer than any route's deadline: an answer later than this counts as a hang. */
const CLIENT_TIMEOUT_MS = 20_000;

async function timedCall(
  run: () => Promise<HttpResponse>,
): Promise<HttpResponse | 'timeout' | 'error'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), CLIENT_TIMEOUT_MS);
  });
  try {
    return await Promise.race([run().catch(() => 'error' as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const isJson503 = (response: HttpResponse) =>
  response.status === 503 &&
  typeof response.body === 'object' &&
  typeof (response.body as { message?: unknown }).message === 'string';

/**
 * Steady paced load on the launched system while each fault is applied in turn; returns the
 * figures. Bounded: each wait has a cap, and the load is a fixed rate of short requests.
 */
export async function runFaults(
  system: LaunchedSystem,
  faults: Fault[],
  options: { ratePerSecond?: number; capMs?: number } = {},
): Promise<FaultRun> {
  const { dev } = system;
  const auth = { authorization: `Bearer ${dev.token}` };
  const call = (method: string, path: string, body?: unknown) =>
    httpCall(dev.gateway_url!, method, path, { host: dev.host, headers: auth, body });
  const created = await call('POST', '/api/integrations/parcel-tracking/instances', {
    name: 'Faults',
    api_key: dev.provider_api_key,
  });
  if (created.status !== 201) throw new Error(`instance: ${created.status} ${created.text}`);
  const instance = created.body.data as { id: number; webhook_url: string };
  const webhookPath = new URL(instance.webhook_url).pathname;
  let sequence = 0;
  const acknowledged: string[] = [];
  const probes: Record<ProbeName, () => Promise<HttpResponse>> = {
    user: () => call('GET', '/api/user'),
    channels: () =>
      call('GET', `/api/integrations/parcel-tracking/instances/${instance.id}/trackable-channels`),
    activity: () =>
      call('GET', `/api/integrations/parcel-tracking/instances/${instance.id}/activity`),
    subscriptions: () => call('GET', '/api/webhook-subscriptions'),
    // Readiness is 503 only when a part every request needs is down (identity, Redis, NATS).
    readyz: () => httpCall(dev.gateway_url!, 'GET', '/readyz'),
    webhook: async () => {
      const number = `FAULT${Date.now()}N${(sequence += 1)}`;
      const response = await httpCall(dev.gateway_url!, 'POST', webhookPath, {
        host: dev.host,
        body: { event: 'TRACKING_UPDATED', data: { number, carrier: 100002 } },
      });
      if (response.status >= 200 && response.status < 300) acknowledged.push(number);
      return response;
    },
  };

  let requests = 0;
  const badAnswers: string[] = [];
  const record = (label: string, answer: HttpResponse | 'timeout' | 'error') => {
    requests += 1;
    if (answer === 'timeout' || answer === 'error') badAnswers.push(`${label}: ${answer}`);
    // Readiness answers 503 in its own shape ({ status, checks }) by design.
    else if (answer.status >= 500 && !isJson503(answer) && !label.endsWith('readyz'))
      badAnswers.push(`${label}: ${answer.status} ${answer.text.slice(0, 120)}`);
  };
  const loadRoutes: ProbeName[] = ['user', 'channels', 'activity', 'webhook'];
  let running = true;
  const inFlight = new Set<Promise<void>>();
  const load = (async () => {
    for (let tick = 0; running; tick += 1) {
      const name = loadRoutes[tick % loadRoutes.length]!;
      const pending = timedCall(probes[name]).then((answer) => record(name, answer));
      inFlight.add(pending);
      void pending.finally(() => inFlight.delete(pending));
      await new Promise((resolve) => setTimeout(resolve, 1_000 / (options.ratePerSecond ?? 4)));
    }
  })();

  const cap = options.capMs ?? 60_000;
  const pollFor = async (
    probe: ProbeName,
    wanted: (answer: HttpResponse) => boolean,
    giveUp: () => boolean = () => false,
  ) => {
    const started = Date.now();
    while (Date.now() - started < cap && !giveUp()) {
      const answer = await timedCall(probes[probe]);
      record(`probe ${probe}`, answer);
      if (typeof answer === 'object' && wanted(answer)) return Date.now();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return null;
  };

  const figures: FaultFigures[] = [];
  try {
    for (const fault of faults) {
      const pid = system.pidOf(fault.process);
      if (!pid) throw new Error(`no process matching ${fault.process}`);
      const start = Date.now();
      const restartsBefore = restartCount(system.output(), fault.part);
      process.kill(pid, fault.action === 'freeze' ? 'SIGSTOP' : 'SIGKILL');
      let unavailableAt: number | null = null;
      try {
        // A killed part may be back (restarted by the supervisor) before any request notices:
        // for a kill, the supervisor's restart line also ends the wait for a 503.
        unavailableAt = await pollFor(
          fault.probe,
          (answer) => (fault.probe === 'readyz' ? answer.status === 503 : isJson503(answer)),
          () =>
            fault.action === 'kill' && restartCount(system.output(), fault.part) > restartsBefore,
        );
      } finally {
        if (fault.action === 'freeze') process.kill(pid, 'SIGCONT');
      }
      const recoveryStart = fault.action === 'freeze' ? Date.now() : start;
      const recoveredAt = await pollFor(
        fault.probe,
        (answer) => answer.status >= 200 && answer.status < 300,
      );
      // Every other route is back too before the next fault starts.
      await pollFor('readyz', (answer) => answer.status === 200);
      figures.push({
        fault: fault.name,
        firstUnavailableMs: unavailableAt === null ? null : unavailableAt - start,
        recoveryMs: recoveredAt === null ? null : recoveredAt - recoveryStart,
        restarted: restartCount(system.output(), fault.part) > restartsBefore,
      });
    }
  } finally {
    running = false;
    await load;
    await Promise.all([...inFlight]);
  }

  const connection = await mongoose
    .createConnection(dev.mongo_url!, { dbName: 'webhook_ingest' })
    .asPromise();
  try {
    const stored = await connection
      .collection('webhook_events')
      .find({}, { projection: { raw_body: 1 } })
      .toArray();
    const bodies = stored.map((row) => String(row.raw_body));
    const lost = acknowledged.filter((number) => !bodies.some((body) => body.includes(number)));
    return {
      figures,
      requests,
      badAnswers,
      acknowledgedWebhooks: acknowledged.length,
      lostWebhooks: lost.length,
    };
  } finally {
    await connection.close();
  }
}

export function formatFigures(run: FaultRun): string {
  const lines = run.figures.map(
    (row) =>
      `  ${row.fault.padEnd(26)} first 503 after ${row.firstUnavailableMs ?? 'none'} ms, recovered after ${row.recoveryMs ?? 'never'} ms${row.restarted ? ' (restarted by the supervisor)' : ''}`,
  );
  return [
    `faults: ${run.requests} requests; ${run.acknowledgedWebhooks} webhooks acknowledged, ${run.lostWebhooks} lost; ${run.badAnswers.length} bad answers`,
    ...lines,
  ].join('\n');
}
