import type { ApiClient } from '@inventory/api-client';
import { idempotencyLockName, type GatewayHandle } from '@inventory/gateway';
import { freePort } from '@inventory/local-infra';
import { connectRedis } from '@inventory/platform';
import { expect, it } from 'vitest';
import {
  ContractLedger,
  contractClient,
  documentedOperations,
  type ContractClientOptions,
  type DocumentedOperation,
} from '../../../src/fixtures/contract.js';
import {
  createTenantWithToken,
  createUserWithToken,
  startSecondGateway,
  type TenantFixture,
} from '../../../src/fixtures/tenants.js';
import {
  populatedTenant,
  startResilienceSystem,
  type PopulatedTenant,
  type ResilienceSystem,
} from '../../resilience/harness.js';

export { PROVIDER_KEY, OTHER_PROVIDER_KEY, PARCEL } from '../../resilience/harness.js';

/** The Host no tenant answers on (the 404 every tenant route documents). */
export const UNKNOWN_HOST = 'nobody-here.inventory.localhost';

/** Downstream address settings of the gateway, by the service that owns them. */
const ADDRESS_SETTING = {
  identity: 'IDENTITY_GRPC_ADDRESS',
  'parcel-tracking': 'PARCEL_TRACKING_GRPC_ADDRESS',
  'webhook-ingest': 'WEBHOOK_INGEST_GRPC_ADDRESS',
  'outbound-delivery': 'OUTBOUND_DELIVERY_GRPC_ADDRESS',
  activity: 'ACTIVITY_GRPC_ADDRESS',
  catalog: 'CATALOG_GRPC_ADDRESS',
} as const;
export type ServiceName = keyof typeof ADDRESS_SETTING;

export interface ContractSystem {
  r: ResilienceSystem;
  ledger: ContractLedger;
  /** A tenant with an instance, a subscription and a web session. */
  tenant: PopulatedTenant;
  /** The generated client on the tenant's host (token by default). */
  api(options?: Partial<ContractClientOptions>): ApiClient;
  /** The session client of the populated tenant. */
  session(): ApiClient;
  /** Another user of the tenant with a token shaped by `options` (scopes, allowlist, limit). */
  tokenFor(options: Parameters<typeof createUserWithToken>[2]): Promise<TenantFixture>;
  /** A tenant of its own (for another tenant's ids and tokens). */
  otherTenant(): Promise<TenantFixture>;
  /**
   * A second gateway on the same services, Redis and NATS, where `down` services answer on no
   * port (as after a crash): routes they own answer 503. Stopped with the system.
   */
  gatewayWithout(down: ServiceName[]): Promise<GatewayHandle>;
  /** A second gateway with other settings (e.g. a lower login throttle). Stopped with the system. */
  gatewayWith(env: Record<string, string>): Promise<GatewayHandle>;
  stop(): Promise<void>;
}

/** One system per contract file: the provider simulated, limits raised (resilience harness). */
export async function startContractSystem(): Promise<ContractSystem> {
  const r = await startResilienceSystem();
  const ledger = new ContractLedger();
  const gateways: GatewayHandle[] = [];
  try {
    const tenant = await populatedTenant(r);
    const host = tenant.fixture.host;
    const gatewayUrl = r.system.gatewayUrl;
    let other: Promise<TenantFixture> | undefined;
    const gatewayWith = async (env: Record<string, string>) => {
      const gateway = await startSecondGateway(r.system, env);
      gateways.push(gateway);
      return gateway;
    };
    return {
      r,
      ledger,
      tenant,
      api: (options = {}) =>
        contractClient(ledger, {
          gatewayUrl,
          host,
          ...(options.authorization === undefined && !options.session
            ? { token: tenant.fixture.token }
            : {}),
          ...options,
        }),
      session: () => contractClient(ledger, { gatewayUrl, host, session: tenant.session }),
      tokenFor: (options) => createUserWithToken(r.system, tenant.fixture.tenant, options),
      otherTenant: () => (other ??= createTenantWithToken(r.system)),
      async gatewayWithout(down) {
        const env: Record<string, string> = {};
        for (const name of down) env[ADDRESS_SETTING[name]] = `127.0.0.1:${await freePort()}`;
        return gatewayWith(env);
      },
      gatewayWith,
      async stop() {
        for (const gateway of gateways) await gateway.stop().catch(() => undefined);
        await r.stop();
      },
    };
  } catch (error) {
    await r.stop();
    throw error;
  }
}

/** The document's operations named in `claims`, in the document's order. */
export function claimedOperations(claims: Record<string, number[]>): DocumentedOperation[] {
  return documentedOperations().filter((operation) => operation.operationId in claims);
}

/** Operations that documented `status` among `claims` (what a sweep of that status must cover). */
export function claiming(claims: Record<string, number[]>, status: number): DocumentedOperation[] {
  return claimedOperations(claims).filter((operation) =>
    claims[operation.operationId]!.includes(status),
  );
}

export interface CallInit {
  body?: unknown;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Bytes sent as they are, labelled `contentType` (default JSON), instead of a serialised `body`. */
  raw?: string;
  contentType?: string;
}

/** Calls an operation through the typed client with its path parameters filled from `ids`. */
export function callOperation(
  api: ApiClient,
  operation: DocumentedOperation,
  ids: Record<string, string>,
  init: CallInit = {},
) {
  const path = Object.fromEntries(
    [...operation.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => {
      const value = ids[name!];
      if (value === undefined) throw new Error(`no value for {${name}} in ${operation.path}`);
      return [name!, value];
    }),
  );
  const request = api.request as (
    method: string,
    url: string,
    init: unknown,
  ) => Promise<{ response: Response; data?: unknown; error?: unknown }>;
  return request(operation.method.toLowerCase(), operation.path, {
    params: { path, ...(init.query ? { query: init.query } : {}) },
    ...(init.body !== undefined ? { body: init.body } : {}),
    ...(init.raw !== undefined ? { body: init.raw, bodySerializer: (raw: string) => raw } : {}),
    ...(init.headers || init.raw !== undefined
      ? {
          headers: {
            ...init.headers,
            ...(init.raw !== undefined
              ? { 'content-type': init.contentType ?? 'application/json' }
              : {}),
          },
        }
      : {}),
  });
}

/** The access an operation documents (`x-access`): public, session, any-token or a scope. */
export function accessOf(
  operation: DocumentedOperation,
): 'public' | 'session' | 'any-token' | 'scope' {
  const access = operation.operation['x-access'];
  return typeof access === 'object' ? 'scope' : access;
}

/**
 * Registers the gate sweeps of `gateSweeps` as one test each, in the order every contract file
 * runs them: what comes before any route is checked the same way for every area.
 */
export function describeGateSweeps(sweeps: ReturnType<typeof gateSweeps>): void {
  it('401 without a credential and with an invalid token', () => sweeps.unauthenticated());
  it('404 on a host no tenant answers on', () => sweeps.unknownHost());
  it('403 for a credential the operation refuses', () => sweeps.forbidden());
  it('400 for a body labelled JSON that does not parse', () => sweeps.malformedJson());
  it('415 for a body of another media type', () => sweeps.unsupportedMedia());
  it('413 for a body over the size limit', () => sweeps.tooLarge());
  it('429 with Retry-After once the token’s minute is spent', () => sweeps.rateLimited());
  it('409 while a request with the same Idempotency-Key runs; 422 for a malformed key', () =>
    sweeps.idempotencyKeys());
}

/**
 * Answers every claimed operation would give for reasons that come before the route itself: no
 * credential or a bad token (401, both shapes), an unknown host (404), the credential refused
 * (403), a spent rate limit (429), a body that does not parse, is too large or is not JSON (400,
 * 413, 415). Each sweep asserts the status and the shape it was meant to
 * produce; the ledger checks the answer against the document.
 */
export function gateSweeps(
  contract: () => ContractSystem,
  claims: Record<string, number[]>,
  ids: () => Record<string, string>,
) {
  /** `status` with `code` for a refused body, sent with the credential the route accepts. */
  async function bodySweep(status: number, init: CallInit, code: string, gatewayUrl?: string) {
    const c = contract();
    for (const operation of claiming(claims, status)) {
      const access = accessOf(operation);
      const api = c.api({
        ...(gatewayUrl ? { gatewayUrl } : {}),
        ...(access === 'session'
          ? { session: c.tenant.session }
          : access === 'public'
            ? { token: undefined }
            : {}),
      });
      const answer = await callOperation(api, operation, ids(), init);
      expect(answer.response.status, operation.operationId).toBe(status);
      expect(answer.error, operation.operationId).toMatchObject({ code });
    }
  }

  return {
    async unauthenticated() {
      const c = contract();
      const other = await c.otherTenant();
      const anonymous = c.api({ authorization: undefined, token: undefined });
      // Another tenant's token is well formed but unknown here: the `InvalidToken` shape.
      const foreign = c.api({ authorization: `Bearer ${other.token}` });
      for (const operation of claiming(claims, 401).filter((op) => accessOf(op) !== 'public')) {
        const none = await callOperation(anonymous, operation, ids());
        expect(none.response.status, operation.operationId).toBe(401);
        expect(none.error, operation.operationId).toEqual({ message: 'Unauthenticated.' });
        const invalid = await callOperation(foreign, operation, ids());
        expect(invalid.response.status, operation.operationId).toBe(401);
        expect(invalid.error, operation.operationId).toMatchObject({ status: 'failure' });
      }
    },
    async unknownHost() {
      const c = contract();
      const api = contractClient(c.ledger, {
        gatewayUrl: c.r.system.gatewayUrl,
        host: UNKNOWN_HOST,
        token: c.tenant.fixture.token,
      });
      for (const operation of claiming(claims, 404)) {
        const answer = await callOperation(api, operation, ids());
        expect(answer.response.status, operation.operationId).toBe(404);
      }
    },
    async forbidden() {
      const c = contract();
      const noScopes = await c.tokenFor({ scopes: [] });
      // An allowlist no test address is in: refused before the route is looked at.
      const elsewhere = await c.tokenFor({ token: { ipAllowlist: ['203.0.113.7'] } });
      for (const operation of claiming(claims, 403)) {
        const access = accessOf(operation);
        const token =
          access === 'scope'
            ? noScopes.token
            : access === 'any-token'
              ? elsewhere.token
              : c.tenant.fixture.token;
        const answer = await callOperation(c.api({ token }), operation, ids());
        expect(answer.response.status, operation.operationId).toBe(403);
        if (access === 'scope')
          expect(answer.error, operation.operationId).toMatchObject({
            required_scope: operation.operation['x-required-scope'],
          });
      }
    },
    /** 400 for a body labelled JSON that does not parse, with the credential the route accepts. */
    malformedJson: () => bodySweep(400, { raw: '{"name":' }, 'malformed_json'),
    /** 415 for a body of another media type where the operation declares a JSON body. */
    unsupportedMedia: () =>
      bodySweep(415, { raw: 'name=x', contentType: 'text/plain' }, 'unsupported_media_type'),
    /** 413 from a gateway whose body limit is 64 bytes (the same check at any limit). */
    async tooLarge() {
      const gateway = await contract().gatewayWith({ BODY_LIMIT_BYTES: '64' });
      const raw = JSON.stringify({ name: 'x'.repeat(200) });
      await bodySweep(413, { raw }, 'payload_too_large', gateway.url);
    },
    /**
     * The routes that take an `Idempotency-Key` (ADR 0119): a malformed key is the 422 field
     * form; a key whose lock is held, as by a first request still running, is 409.
     */
    async idempotencyKeys() {
      const c = contract();
      const redis = await connectRedis(c.r.system.infra.redisUrl);
      try {
        for (const operation of claiming(claims, 409)) {
          const session = accessOf(operation) === 'session';
          const api = c.api(session ? { session: c.tenant.session } : {});
          const malformed = await callOperation(api, operation, ids(), {
            headers: { 'idempotency-key': 'k'.repeat(256) },
          });
          expect(malformed.response.status, operation.operationId).toBe(422);
          expect(malformed.error, operation.operationId).toMatchObject({
            errors: { 'Idempotency-Key': [expect.any(String)] },
          });
          const key = `contract-${operation.operationId}`;
          const fixture = c.tenant.fixture;
          const lock = idempotencyLockName(
            {
              tenantId: fixture.tenant.id,
              credential: session ? { userId: fixture.user.id } : { tokenId: fixture.tokenId },
            },
            key,
          );
          await redis.set(lock, 'held by the contract test', 'PX', 60_000);
          try {
            const busy = await callOperation(api, operation, ids(), {
              headers: { 'idempotency-key': key },
            });
            expect(busy.response.status, operation.operationId).toBe(409);
            expect(busy.error, operation.operationId).toMatchObject({
              code: 'idempotency_key_in_use',
            });
          } finally {
            await redis.del(lock);
          }
        }
      } finally {
        redis.disconnect();
      }
    },
    async rateLimited() {
      const c = contract();
      const limited = await c.tokenFor({ token: { rateLimitPerMinute: 1 } });
      const api = c.api({ token: limited.token });
      // The one request of the minute (any route: the budget is the token's).
      expect((await api.GET('/api/user')).response.status).toBe(200);
      for (const operation of claiming(claims, 429).filter((op) => accessOf(op) !== 'public')) {
        const answer = await callOperation(api, operation, ids());
        expect(answer.response.status, operation.operationId).toBe(429);
        expect(Number(answer.response.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    },
  };
}

/** Operations of `claims` answered 503 by a gateway where `owner(operation)` is down. */
export async function unavailableSweep(
  c: ContractSystem,
  claims: Record<string, number[]>,
  ids: Record<string, string>,
  down: ServiceName[],
  credential: (operation: DocumentedOperation) => Partial<ContractClientOptions>,
  except: string[] = [],
  /** What an operation must be sent for its input to pass, so the owning service is called. */
  inputs: Record<string, CallInit> = {},
) {
  const gateway = await c.gatewayWithout(down);
  for (const operation of claiming(claims, 503).filter((op) => !except.includes(op.operationId))) {
    const api = contractClient(c.ledger, {
      gatewayUrl: gateway.url,
      host: c.tenant.fixture.host,
      ...credential(operation),
    });
    const answer = await callOperation(api, operation, ids, inputs[operation.operationId]);
    expect(answer.response.status, operation.operationId).toBe(503);
  }
}

/** Every pair the file claims was seen, each answer having matched the document. */
export function expectAllSeen(ledger: ContractLedger, claims: Record<string, number[]>) {
  expect(ledger.missing(claims)).toEqual([]);
}
