import { httpCall, type HttpResponse } from '../fixtures/http.js';
import type { Fault, ProbeName } from './fault-list.js';
import type { LaunchedSystem } from './launcher.js';
import { startOutboundTraffic, type OutboundFigures } from './outbound-traffic.js';
import { storedBodies } from './stored-bodies.js';

/** How many times the launcher's supervisor says it restarted `part`. */
const restartCount = (output: string, part: string) =>
  output.split(`[dev] ${part} restarted`).length - 1;

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
  /** Outbound deliveries scheduled during the run, and where each one is afterwards. */
  outbound: OutboundFigures;
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
  options: { ratePerSecond?: number; capMs?: number; deliveryCapMs?: number } = {},
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
  const outbound = await startOutboundTraffic(dev, call);
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
  // Which fault a bad answer came during, and when, to find it in the system's log.
  let phase = 'before the first fault';
  const recordBad = (label: string, what: string) =>
    badAnswers.push(`${label} (${phase}, ${new Date().toISOString()}): ${what}`);
  const record = (label: string, answer: HttpResponse | 'timeout' | 'error') => {
    requests += 1;
    if (answer === 'timeout' || answer === 'error') recordBad(label, answer);
    // Readiness answers 503 in its own shape ({ status, checks }) by design.
    else if (answer.status >= 500 && !isJson503(answer) && !label.endsWith('readyz'))
      recordBad(label, `${answer.status} ${answer.text.slice(0, 120)}`);
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
      phase = fault.name;
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
        // Held frozen for the fault's whole length, the probe still asked all along.
        if (fault.action === 'freeze' && fault.holdMs)
          await pollFor(
            fault.probe,
            () => false,
            () => Date.now() - start >= fault.holdMs!,
          );
      } finally {
        if (fault.action === 'freeze') process.kill(pid, 'SIGCONT');
      }
      phase = `after ${fault.name}`;
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
    await Promise.all([load, outbound.stop()]);
    await Promise.all([...inFlight]);
  }

  let outboundFigures: OutboundFigures;
  try {
    outboundFigures = await outbound.verify(dev.mongo_url!, options.deliveryCapMs ?? 60_000);
  } finally {
    await outbound.close();
  }
  const bodies = await storedBodies(dev.mongo_url!, 'webhook_ingest', 'webhook_events', 'raw_body');
  const lost = acknowledged.filter((number) => !bodies.some((body) => body.includes(number)));
  return {
    figures,
    requests,
    badAnswers,
    acknowledgedWebhooks: acknowledged.length,
    lostWebhooks: lost.length,
    outbound: outboundFigures,
  };
}

export function formatFigures(run: FaultRun): string {
  const lines = run.figures.map(
    (row) =>
      `  ${row.fault.padEnd(26)} first 503 after ${row.firstUnavailableMs ?? 'none'} ms, recovered after ${row.recoveryMs ?? 'never'} ms${row.restarted ? ' (restarted by the supervisor)' : ''}`,
  );
  return [
    `faults: ${run.requests} requests; ${run.acknowledgedWebhooks} webhooks acknowledged, ${run.lostWebhooks} lost; ${run.badAnswers.length} bad answers`,
    `  outbound: ${run.outbound.scheduled} deliveries scheduled, ${run.outbound.delivered} delivered, ${run.outbound.inLog} in the log still to retry, ${run.outbound.lost} lost`,
    ...lines,
  ].join('\n');
}
