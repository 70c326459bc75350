import { IdentityServiceClient } from '@inventory/contracts/identity/v1/identity.js';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import {
  createGrpcClient,
  newRequestId,
  runWithContext,
  type GrpcClientHandle,
  type ServiceRuntime,
} from '@inventory/platform';
import { bootstrap } from '../src/bootstrap.js';

/** Runs `fn` as the gateway would call identity: tenant (and user) in the request context. */
export const as = <T>(tenantId: string, userId: number | undefined, fn: () => Promise<T>) =>
  runWithContext(
    {
      requestId: newRequestId(),
      tenantId,
      userId: userId === undefined ? undefined : String(userId),
    },
    fn,
  );

/**
 * A tenant of its own, its owner, and a personal access token of the owner's: what the
 * request-log tests log requests for.
 */
export async function tokenOwner(client: GrpcClientHandle<IdentityServiceClient>, slug: string) {
  const { tenant } = await client.call.createTenant({ slug, name: '', custom_domains: [] });
  const { user } = await as(tenant!.id, undefined, () =>
    client.call.createUser({
      email: `owner@${slug}.test`,
      name: 'Owner',
      password: 'password-1',
      is_owner: true,
      permissions: [],
    }),
  );
  const { token } = await as(tenant!.id, user!.id, () =>
    client.call.createToken({ name: 't', scopes: [], ip_allowlist: [], input_violations: [] }),
  );
  return { tenant: tenant!, user: user!, token: token! };
}

/** One request as a gateway logs it, made with the owner's token; `over` sets what a test varies. */
export function loggedRequest(
  owner: { user: { id: number }; token: { id: number } },
  id: string,
  over: { status?: number; duration_ms?: number; at?: Date; traceparent?: string } = {},
) {
  return {
    id,
    token_id: owner.token.id,
    user_id: owner.user.id,
    method: 'GET',
    route: '/api/user',
    path: '/api/user',
    status: 200,
    duration_ms: 1,
    ip: '127.0.0.1',
    user_agent: 'test',
    at: new Date(),
    ...over,
  };
}

export interface IdentityUnderTest {
  infra: TestInfra;
  service: ServiceRuntime;
  client: GrpcClientHandle<IdentityServiceClient>;
  dbName: string;
  stop(): Promise<void>;
}

/** The real identity service on real NATS and MongoDB, with a gRPC client through a real channel. */
export async function startIdentity(extraEnv: NodeJS.ProcessEnv = {}): Promise<IdentityUnderTest> {
  const infra = await startTestInfra({ redis: false });
  const dbName = infra.dbName('identity');
  const service = await bootstrap({
    MONGO_URL: infra.mongoUrl,
    MONGO_DB: dbName,
    NATS_URL: infra.natsUrl,
    LOG_LEVEL: 'silent',
    ...extraEnv,
  });
  const client = createGrpcClient(IdentityServiceClient, service.grpc!.address);
  return {
    infra,
    service,
    client,
    dbName,
    async stop() {
      client.close();
      await service.stop();
      await infra.stop();
    },
  };
}
