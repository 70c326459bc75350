import type {
  StreamUsersRequest,
  StreamUsersResponse,
} from '@inventory/contracts/identity/v1/identity.js';
import { contextToMetadata, newRequestId } from '@inventory/platform';
import type { ClientDuplexStream } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startIdentity, type IdentityUnderTest } from './harness.js';

type UsersCall = ClientDuplexStream<StreamUsersRequest, StreamUsersResponse>;

/** Sends each request on the stream and collects exactly that many answers. */
function exchange(call: UsersCall, requests: StreamUsersRequest[]): Promise<StreamUsersResponse[]> {
  return new Promise((resolve, reject) => {
    const answers: StreamUsersResponse[] = [];
    const onData = (answer: StreamUsersResponse) => {
      answers.push(answer);
      if (answers.length === requests.length) {
        call.off('data', onData);
        resolve(answers);
      }
    };
    call.on('data', onData);
    call.once('error', reject);
    for (const request of requests) call.write(request);
  });
}

/** An identity with one tenant and one user in it. */
async function identityWithUser() {
  const identity = await startIdentity();
  const { tenant } = await identity.client.call.createTenant({
    slug: 'stream',
    name: '',
    custom_domains: [],
  });
  const { user } = await as(tenant!.id, undefined, () =>
    identity.client.call.createUser({
      email: 'streamed@stream.test',
      name: 'Streamed',
      password: 'password-1',
      is_owner: true,
      permissions: [],
    }),
  );
  const open = (tenantId?: string) =>
    identity.client.client.streamUsers(contextToMetadata({ requestId: newRequestId(), tenantId }));
  return { identity, tenantId: tenant!.id, userId: user!.id, open };
}

describe('StreamUsers: look-ups on one long-lived stream per tenant', () => {
  let identity: IdentityUnderTest;
  let tenantId: string;
  let userId: number;
  let open: Awaited<ReturnType<typeof identityWithUser>>['open'];

  beforeAll(async () => {
    ({ identity, tenantId, userId, open } = await identityWithUser());
  });
  afterAll(() => identity?.stop());

  it('answers every request once, by correlation id, errors included, and keeps the stream open', async () => {
    const call = open(tenantId);
    const answers = await exchange(call, [
      { correlation_id: 7, user_ids: [userId, 424_242] },
      { correlation_id: 8, user_ids: Array.from({ length: 501 }, (_, index) => index + 1) },
      { correlation_id: 9, user_ids: [userId] },
    ]);
    const byId = new Map(answers.map((answer) => [answer.correlation_id, answer]));
    expect(byId.get(7)).toMatchObject({
      error_code: 0,
      users: [{ id: userId, email: 'streamed@stream.test' }],
    });
    expect(byId.get(7)!.users).toHaveLength(1);
    expect(byId.get(8)).toMatchObject({
      error_code: 3,
      error_reason: 'validation_failed',
      error_message: 'At most 500 users per call.',
      users: [],
    });
    expect(byId.get(9)).toMatchObject({ error_code: 0, users: [{ id: userId }] });
    // Still usable after a failed look-up.
    const [again] = await exchange(call, [{ correlation_id: 10, user_ids: [userId] }]);
    expect(again).toMatchObject({ correlation_id: 10, users: [{ id: userId }] });
    call.end();
  });

  it("looks up the stream tenant's users by id, leaving out unknown and other tenants' ids", async () => {
    const { tenant: other } = await identity.client.call.createTenant({
      slug: 'stream-other',
      name: '',
      custom_domains: [],
    });
    const userIn = async (tenant: string, email: string) =>
      (
        await as(tenant, undefined, () =>
          identity.client.call.createUser({
            email,
            name: email,
            password: 'password-1',
            is_owner: false,
            permissions: ['orders:read'],
          }),
        )
      ).user!;
    const second = await userIn(tenantId, 'second@stream.test');
    const foreign = await userIn(other!.id, 'foreign@other.test');

    const call = open(tenantId);
    const [found, none] = await exchange(call, [
      { correlation_id: 1, user_ids: [second.id, userId, foreign.id, 999_999, userId] },
      { correlation_id: 2, user_ids: [] },
    ]).then((answers) => answers.sort((x, y) => x.correlation_id - y.correlation_id));
    expect(found!.users.map((user) => user.email).sort()).toEqual([
      'second@stream.test',
      'streamed@stream.test',
    ]);
    expect(found!.users.find((user) => user.id === second.id)).toMatchObject({
      name: 'second@stream.test',
      is_owner: false,
      permissions: ['orders:read'],
      two_factor_enabled: false,
    });
    expect(none).toMatchObject({ correlation_id: 2, error_code: 0, users: [] });
    call.end();
  });

  it('refuses a stream without a tenant', async () => {
    const call = open(undefined);
    const error = await new Promise<{ code?: number; details?: string }>((resolve) => {
      call.on('error', resolve);
      call.on('data', () => undefined);
      call.write({ correlation_id: 1, user_ids: [userId] });
    });
    expect(error).toMatchObject({ code: 3, details: 'x-tenant-id metadata is required' });
  });
});

// Its own identity: draining stops the server the other tests talk to.
describe('StreamUsers when the server drains', () => {
  let drained: Awaited<ReturnType<typeof identityWithUser>> | undefined;
  afterAll(() => drained?.identity.stop());

  it('ends open streams when the server drains, after answering what it was asked', async () => {
    drained = await identityWithUser();
    const { identity, tenantId, userId, open } = drained;
    const call = open(tenantId);
    const answered = exchange(call, [{ correlation_id: 1, user_ids: [userId] }]);
    const ended = new Promise<void>((resolve) => call.on('end', () => resolve()));
    expect((await answered)[0]).toMatchObject({ correlation_id: 1, users: [{ id: userId }] });
    // A drain timeout no test outlives: the stream must end itself for the stop to return.
    await identity.service.grpc!.stop(60 * 60_000);
    await ended;
  });
});
