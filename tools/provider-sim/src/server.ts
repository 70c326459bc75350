import Fastify from 'fastify';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ErrorCode, errorEnvelope } from './errors.js';
import type { FaultSpec } from './domain/faults.js';
import type { QuotaSnapshot } from './domain/quota.js';
import type { AuthStyle, KeyOptions, SimState } from './domain/state.js';
import type { MainStatus } from './domain/types.js';
import { registerRawBodyParser } from './http/body.js';
import { adminRoutes } from './routes/admin.js';
import { trackApiRoutes } from './routes/track-api.js';
import { ProviderSim } from './sim.js';
import type { ChangeResult, PushRequest, SimOptions, TrackEndpoint, TrackingView } from './sim.js';
import type { PushResult } from './webhooks/pusher.js';

export interface ProviderSimOptions extends SimOptions {
  /** 0 (default) = a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Fastify/pino request logging. Default false. */
  logger?: boolean;
}

/** The programmatic controls, the same as the `/__sim` admin endpoints. */
export interface ProviderSimControls {
  addKey(options: KeyOptions): { key: string } & QuotaSnapshot;
  trackings(): TrackingView[];
  advance(number: string, apiKey?: string): ChangeResult;
  setStatus(number: string, status: MainStatus, subStatus?: string, apiKey?: string): ChangeResult;
  pushWebhook(request: PushRequest): Promise<PushResult & { body: string }>;
  /** Sends an earlier delivery's exact body again (a late or repeated push). */
  replayWebhook(request: { index: number; url?: string }): Promise<PushResult & { body: string }>;
  failNext(endpoint: TrackEndpoint | '*', spec?: FaultSpec): void;
  setAuthStyle(style: AuthStyle): void;
  reset(): void;
  flushWebhooks(): Promise<void>;
}

export interface ProviderSimHandle extends ProviderSimControls {
  /** e.g. `http://127.0.0.1:4010` (the track API is under `/track/v2.2`). */
  url: string;
  stop(): Promise<void>;
  state: SimState;
  sim: ProviderSim;
}

export interface ProviderSimApp {
  app: FastifyInstance;
  sim: ProviderSim;
  state: SimState;
  /** Listens and returns the handle. */
  start(): Promise<ProviderSimHandle>;
}

function controlsOf(sim: ProviderSim): ProviderSimControls {
  return {
    addKey: (o) => sim.addKey(o),
    trackings: () => sim.trackings(),
    advance: (n, k) => sim.advance(n, k),
    setStatus: (n, s, sub, k) => sim.setStatus(n, s, sub, k),
    pushWebhook: (r) => sim.pushWebhook(r),
    replayWebhook: (r) => sim.replayWebhook(r),
    failNext: (e, spec) => sim.failNext(e, spec),
    setAuthStyle: (s) => sim.setAuthStyle(s),
    reset: () => sim.reset(),
    flushWebhooks: () => sim.flushWebhooks(),
  };
}

/** Builds the simulator without listening (use `app.inject` or `start()`). */
export function createProviderSim(options: ProviderSimOptions = {}): ProviderSimApp {
  const sim = new ProviderSim(options);
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 1024 * 1024 });
  registerRawBodyParser(app);
  app.setErrorHandler((err: FastifyError, _req, reply) => {
    const status =
      err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) app.log.error(err);
    const code = status === 500 ? ErrorCode.InternalError : ErrorCode.InvalidFormat;
    return reply.code(status).send(errorEnvelope(code, status === 500 ? undefined : err.message));
  });
  app.setNotFoundHandler((_req, reply) =>
    reply
      .code(404)
      .send(errorEnvelope(ErrorCode.InvalidData, 'The requested URL address is incorrect.')),
  );
  trackApiRoutes(app, sim);
  adminRoutes(app, sim);

  const start = async (): Promise<ProviderSimHandle> => {
    const host = options.host ?? '127.0.0.1';
    await app.listen({ port: options.port ?? 0, host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    return {
      ...controlsOf(sim),
      url: `http://${urlHost}:${port}`,
      state: sim.state,
      sim,
      stop: async () => {
        await app.close();
        await sim.flushWebhooks();
      },
    };
  };
  return { app, sim, state: sim.state, start };
}

/** Builds and starts the simulator. */
export async function startProviderSim(
  options: ProviderSimOptions = {},
): Promise<ProviderSimHandle> {
  return createProviderSim(options).start();
}
