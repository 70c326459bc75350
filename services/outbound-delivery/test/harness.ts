import {
  OutboundDeliveryServiceClient,
  type UpdateSubscriptionRequest,
} from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import {
  domainEventEntry,
  productCreated,
  type DomainEventName,
  type ProductCreated,
} from '@inventory/events';
import { waitFor, startTestInfra, type TestInfra } from '@inventory/local-infra';
import {
  createGrpcClient,
  describeCallError,
  runWithContext,
  type GrpcClientHandle,
} from '@inventory/platform';
import { bootstrap, type BootstrapOptions } from '../src/bootstrap.js';

/** Short waits and timeouts, loopback http receivers: what tests (and `npm start`) use. */
export const FAST_ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  WEBHOOK_RETRY_DELAYS_MS: '50,100',
  WEBHOOK_TIMEOUT_MS: '500',
  DELIVERY_POLL_MS: '25',
  DELIVERY_LEASE_MS: '3000',
  LOG_LEVEL: 'silent',
};

export type Service = Awaited<ReturnType<typeof bootstrap>>;

export interface Harness {
  infra: TestInfra;
  env: NodeJS.ProcessEnv;
  service: Service;
  client: GrpcClientHandle<OutboundDeliveryServiceClient>;
  /** Another replica (or a restart) on the same database, NATS and Redis. */
  startReplica(env?: NodeJS.ProcessEnv, options?: BootstrapOptions): Promise<Service>;
  /** Stops every in-process replica started so far (the infrastructure keeps running). */
  stopReplicas(): Promise<void>;
  publish(
    tenantId: string,
    name: DomainEventName,
    data: Record<string, unknown>,
    id?: string,
  ): Promise<string>;
  /** Publishes `catalog.product.created` (the one fact behind `product.created`, ADR 0416). */
  publishProduct(
    tenantId: string,
    product: ProductRecordInput,
    options?: { id?: string; occurredAt?: Date },
  ): Promise<string>;
  stop(): Promise<void>;
}

export async function startHarness(
  env: NodeJS.ProcessEnv = {},
  options: BootstrapOptions = {},
): Promise<Harness> {
  const infra = await startTestInfra();
  const baseEnv: NodeJS.ProcessEnv = {
    MONGO_URL: infra.mongoUrl,
    MONGO_DB: infra.dbName('outbound_delivery'),
    NATS_URL: infra.natsUrl,
    REDIS_URL: infra.redisUrl,
    ...FAST_ENV,
    ...env,
  };
  const replicas: Service[] = [];
  const startReplica = async (extra: NodeJS.ProcessEnv = {}, opts: BootstrapOptions = options) => {
    const replica = await bootstrap({ ...baseEnv, ...extra }, opts);
    replicas.push(replica);
    return replica;
  };
  const service = await startReplica();
  const client = clientAt(service.grpc!.address);
  return {
    infra,
    env: baseEnv,
    service,
    client,
    startReplica,
    async stopReplicas() {
      for (const replica of replicas.splice(0)) await replica.stop().catch(() => undefined);
    },
    async publish(tenantId, name, data, id) {
      const { type, event } = domainEventEntry({ tenantId, name, data, id });
      return service.publisher.publish(type, event);
    },
    async publishProduct(tenantId, product, options = {}) {
      return service.publisher.publish(productCreated, {
        tenantId,
        ...options,
        payload: productPayload(product),
      });
    },
    async stop() {
      client.close();
      for (const replica of replicas) await replica.stop().catch(() => undefined);
      await infra.stop();
    },
  };
}

export type ProductRecordInput = Partial<NonNullable<ProductCreated['product']>> & {
  product_id: number;
};

/** A `catalog.product.created` payload: the record with plain defaults for what is not given. */
export const productPayload = (product: ProductRecordInput): ProductCreated => ({
  product: {
    sku: `SKU-${product.product_id}`,
    name: 'Product',
    type: 'standard',
    price: '1.00',
    ...product,
  },
  version: 1,
});

/** A client of one replica or process, a restarted one say; the caller closes it. */
export const clientAt = (address: string, deadlineMs = 20_000) =>
  createGrpcClient(OutboundDeliveryServiceClient, address, { deadlineMs });

/** Runs a call as a tenant, the way the gateway's metadata would. */
export const as = <T>(tenantId: string, fn: () => Promise<T>) =>
  runWithContext({ requestId: `test-${Math.random()}`, tenantId, userId: '1' }, fn);

export async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return describeCallError(error);
  }
  throw new Error('expected the call to fail');
}

/** The shared poll for a value that appears (generous cap, no timing claims). */
export { waitFor };

/** Creates a subscription as `tenant`; returns its id and the one-time secret. */
export async function subscribe(
  h: Harness,
  tenant: string,
  url: string,
  events: string[] = ['sales_order.created'],
): Promise<{ id: number; secret: string }> {
  const created = await as(tenant, () =>
    h.client.call.createSubscription({ url, events, input_violations: [] }),
  );
  return { id: created.subscription!.id, secret: created.secret };
}

/** Updates a subscription as `tenant`, changing only what `changes` names. */
export function updateSubscription(
  h: Harness,
  tenant: string,
  id: number,
  changes: Partial<Omit<UpdateSubscriptionRequest, 'id'>>,
) {
  return as(tenant, () =>
    h.client.call.updateSubscription({
      id,
      events: [],
      has_events: false,
      clear_description: false,
      input_violations: [],
      ...changes,
    }),
  );
}

/** The delivery log of a subscription (first 100, newest first). */
export async function deliveriesOf(
  h: Harness,
  tenant: string,
  subscriptionId: number,
  filter: { status?: string; event?: string } = {},
) {
  const { deliveries, total } = await as(tenant, () =>
    h.client.call.listDeliveries({
      subscription_id: subscriptionId,
      page: 1,
      per_page: 100,
      ...filter,
    }),
  );
  return { deliveries, total };
}

/** Waits until every delivery of the subscription has settled and there are `count` of them. */
export async function settledDeliveries(
  h: Harness,
  tenant: string,
  subscriptionId: number,
  count: number,
) {
  return waitFor(async () => {
    const { deliveries } = await deliveriesOf(h, tenant, subscriptionId);
    return deliveries.length === count && deliveries.every((d) => d.status !== 'pending')
      ? deliveries
      : undefined;
  }, `${count} settled deliveries of subscription ${subscriptionId}`);
}

/** Waits until the subscription has exactly `count` succeeded deliveries (newest first). */
export async function succeededDeliveries(
  h: Harness,
  tenant: string,
  subscriptionId: number,
  count: number,
) {
  return waitFor(async () => {
    const { deliveries } = await deliveriesOf(h, tenant, subscriptionId, { status: 'succeeded' });
    return deliveries.length === count ? deliveries : undefined;
  }, `${count} succeeded deliveries of subscription ${subscriptionId}`);
}
