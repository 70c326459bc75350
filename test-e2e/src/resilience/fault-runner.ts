import { DEFAULT_RETRY_BACKOFF } from '@inventory/platform';
import { httpCall, type HttpResponse } from '../fixtures/http.js';
import type { Fault, ProbeName } from './fault-list.js';
import type { LaunchedSystem } from './launcher.js';
import { createOnce } from './create-once.js';
import { InboundLedger } from './inbound-ledger.js';
import {
  isDoubledEvent,
  isLostEvent,
  startOutboundTraffic,
  type OutboundFigures,
} from './outbound-traffic.js';

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
  /** The longest answer (or 20 s cap) of a request started between the fault and recovery. */
  longestMs: number;
  /** Inbound webhooks posted during the fault and its recovery. */
  inbound: {
    acknowledged: number;
    refused: number;
    lost: number;
    doubled: number;
    answerLost: number;
  };
  /** catalog.product.created events JetStream acknowledged during the fault and its recovery. */
  outbound: { scheduled: number; lost: number; doubled: number; resent: number };
}

export interface FaultRun {
  figures: FaultFigures[];
  requests: number;
  /** Load answers that were 5xx but not a JSON 503 in the specification's shape, or no answer. */
  badAnswers: string[];
  acknowledgedWebhooks: number;
  lostWebhooks: number;
  /** Pushes taken to be processed more than once, once each refused one was sent again. */
  doubledWebhooks: number;
  /**
   * Pushes refused whose first row was processed, the provider's retry shown as its duplicate:
   * the answer lost after the write (webhook-ingest frozen), which cannot be told from inside.
   */
  answerLostWebhooks: number;
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
  options: {
    ratePerSecond?: number;
    capMs?: number;
    /**
     * The longest wait for the fan-out to hold no event once the load stops (default twice the
     * longest redelivery wait: an event failed through a long outage comes back that late).
     */
    deliveryCapMs?: number;
    /** Every freeze lasts at least this long (the 20 s), besides a fault's own hold. */
    freezeMs?: number;
    /** Load on the healthy system before the first fault (default 5 s). */
    warmUpMs?: number;
  } = {},
): Promise<FaultRun> {
  const { dev } = system;
  const auth = { authorization: `Bearer ${dev.token}` };
  const call = (method: string, path: string, body?: unknown) =>
    httpCall(dev.gateway_url!, method, path, { host: dev.host, headers: auth, body });
  type Instance = { id: number; name: string; webhook_url: string };
  const instance = await createOnce<Instance>(
    'instance',
    () =>
      call('POST', '/api/integrations/parcel-tracking/instances', {
        name: 'Faults',
        api_key: dev.provider_api_key,
      }),
    async () => {
      const listed = await call('GET', '/api/integrations/parcel-tracking/instances');
      const rows = listed.status === 200 ? (listed.body.data as Instance[]) : [];
      return rows.find((row) => row.name === 'Faults');
    },
  );
  const webhookPath = new URL(instance.webhook_url).pathname;
  // Which fault a request or an event came during, and when, to find it in the system's log.
  let phase = 'before the first fault';
  const outbound = await startOutboundTraffic(dev, call, { phase: () => phase });
  let sequence = 0;
  const inbound = new InboundLedger();
  // The same body every time for one number: a retry is the same push, as a provider sends it.
  const postWebhook = (number: string) =>
    httpCall(dev.gateway_url!, 'POST', webhookPath, {
      host: dev.host,
      body: { event: 'TRACKING_UPDATED', data: { number, carrier: 100002 } },
    });
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
      const response = await postWebhook(number);
      inbound.record(number, phase, response.status >= 200 && response.status < 300);
      return response;
    },
  };

  const timings: Array<{ startedAt: number; ms: number }> = [];
  const badAnswers: string[] = [];
  const recordBad = (label: string, what: string) =>
    badAnswers.push(`${label} (${phase}, ${new Date().toISOString()}): ${what}`);
  const timed = async (label: string, probe: ProbeName) => {
    const startedAt = Date.now();
    const answer = await timedCall(probes[probe]);
    timings.push({ startedAt, ms: Date.now() - startedAt });
    record(label, answer);
    return answer;
  };
  const record = (label: string, answer: HttpResponse | 'timeout' | 'error') => {
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
      const pending = timed(name, name).then(() => undefined);
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
      const answer = await timed(`probe ${probe}`, probe);
      if (typeof answer === 'object' && wanted(answer)) return Date.now();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return null;
  };

  const windows: Array<{ fault: string; start: number; end: number }> = [];
  // Steady load on the healthy system first: the figures of a fault start from a served state.
  await pollFor('readyz', (answer) => answer.status === 200);
  const warmUntil = Date.now() + (options.warmUpMs ?? 5_000);
  await pollFor(
    'readyz',
    () => false,
    () => Date.now() >= warmUntil,
  );

  const figures: Array<Omit<FaultFigures, 'longestMs' | 'inbound' | 'outbound'>> = [];
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
        const holdMs = Math.max(fault.holdMs ?? 0, options.freezeMs ?? 0);
        if (fault.action === 'freeze' && holdMs)
          await pollFor(
            fault.probe,
            () => false,
            () => Date.now() - start >= holdMs,
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
      // The supervisor logs a restart once its own readiness check passes, which can come after
      // the part already serves the probe: wait for the line rather than read it once.
      const restarted = () => restartCount(system.output(), fault.part) > restartsBefore;
      if (fault.action === 'kill') await pollFor('readyz', () => false, restarted);
      windows.push({ fault: fault.name, start, end: Date.now() });
      figures.push({
        fault: fault.name,
        firstUnavailableMs: unavailableAt === null ? null : unavailableAt - start,
        recoveryMs: recoveredAt === null ? null : recoveredAt - recoveryStart,
        restarted: restarted(),
      });
    }
  } finally {
    running = false;
    await Promise.all([load, outbound.stop()]);
    await Promise.all([...inFlight]);
  }

  let outboundFigures: OutboundFigures;
  try {
    outboundFigures = await outbound.verify(
      dev.mongo_url!,
      options.deliveryCapMs ?? 2 * DEFAULT_RETRY_BACKOFF.maxMs,
    );
  } finally {
    await outbound.close();
  }
  await inbound.redeliverRefused(async (number) => (await postWebhook(number)).status);
  const pushes = await inbound.verify(dev.mongo_url!);
  const during = (fault: string) => (item: { phase: string }) =>
    item.phase === fault || item.phase === `after ${fault}`;
  const count = <T>(items: T[], test: (item: T) => boolean) => items.filter(test).length;
  return {
    figures: figures.map((row) => {
      const window = windows.find((candidate) => candidate.fault === row.fault)!;
      const started = timings.filter(
        (timing) => timing.startedAt >= window.start && timing.startedAt <= window.end,
      );
      const faultPushes = pushes.filter(during(row.fault));
      const events = outboundFigures.events.filter(during(row.fault));
      return {
        ...row,
        longestMs: Math.max(0, ...started.map((timing) => timing.ms)),
        inbound: {
          acknowledged: count(faultPushes, (push) => push.acknowledged),
          refused: count(faultPushes, (push) => !push.acknowledged),
          lost: count(faultPushes, (push) => push.lost),
          doubled: count(faultPushes, (push) => push.doubled),
          answerLost: count(faultPushes, (push) => push.answerLost),
        },
        outbound: {
          scheduled: events.length,
          lost: count(events, isLostEvent),
          doubled: count(events, isDoubledEvent),
          resent: events.reduce((sum, event) => sum + event.resent, 0),
        },
      };
    }),
    requests: timings.length,
    badAnswers,
    acknowledgedWebhooks: count(pushes, (push) => push.acknowledged),
    lostWebhooks: count(pushes, (push) => push.lost),
    doubledWebhooks: count(pushes, (push) => push.doubled),
    answerLostWebhooks: count(pushes, (push) => push.answerLost),
    outbound: outboundFigures,
  };
}

/** The run as a Markdown table (one row per fault) under a line of totals. */
export function formatFigures(run: FaultRun): string {
  const ms = (value: number | null) =>
    value === null ? 'none' : `${value.toLocaleString('en')} ms`;
  const rows = run.figures.map((row) =>
    [
      row.fault,
      ms(row.firstUnavailableMs),
      ms(row.longestMs),
      `${ms(row.recoveryMs)}${row.restarted ? ' (restarted)' : ''}`,
      `${row.inbound.acknowledged} / ${row.inbound.refused}`,
      `${row.inbound.lost} / ${row.inbound.doubled} / ${row.inbound.answerLost}`,
      `${row.outbound.scheduled}`,
      `${row.outbound.lost} / ${row.outbound.doubled} / ${row.outbound.resent}`,
    ].join(' | '),
  );
  const { outbound } = run;
  return [
    `faults: ${run.requests} requests, ${run.badAnswers.length} bad answers; inbound: ${run.acknowledgedWebhooks} webhooks acknowledged, ${run.lostWebhooks} lost, ${run.doubledWebhooks} processed twice, ${run.answerLostWebhooks} refused after the write (the retry a duplicate); outbound: ${outbound.scheduled} events, ${outbound.delivered} delivered, ${outbound.inLog} in the delivery log undelivered (${outbound.droppedOverCap} of them dropped over the cap), ${outbound.lost} lost, ${outbound.doubled} doubled, ${outbound.resent} resent under the same id`,
    '',
    '| fault | first 503 | longest request | recovered | inbound acked / refused | inbound lost / doubled / answer lost | outbound events | outbound lost / doubled / resent |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}
