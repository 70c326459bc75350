import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap as startIdentity } from '@inventory/identity';
import { eventually } from '@inventory/local-infra';
import type { ServiceRuntime } from '@inventory/platform';
import {
  createTenantWithToken,
  createUserWithToken,
  loginSession,
  startSystem,
  type RunningSystem,
  type SessionFixture,
  type TenantFixture,
} from '../../src/index.js';

const HOUR = 3600 * 1000;
const QUICK = { TOKEN_EXPIRY_ALERT_INTERVAL_MS: '100' };

describe('token expiry alerts with two identity replicas (ADR 0118)', () => {
  let system: RunningSystem;
  let secondIdentity: ServiceRuntime;
  let owner: TenantFixture;
  let session: SessionFixture;

  beforeAll(async () => {
    system = await startSystem({ serviceEnv: { identity: QUICK } });
    // A second replica on the same database and bus, running its own passes.
    secondIdentity = await startIdentity({
      LOG_LEVEL: 'silent',
      MONGO_URL: system.infra.mongoUrl,
      MONGO_DB: system.services.identity!.mongo.name,
      NATS_URL: system.infra.natsUrl,
      ...QUICK,
    });
    owner = await createTenantWithToken(system);
    session = await loginSession(owner, system.gatewayUrl);
  });
  afterAll(async () => {
    await secondIdentity?.stop();
    await system?.stop();
  });

  const tokens = () => system.services.identity!.mongo.collection('personal_access_tokens');
  /** Makes a token expire in 20 hours, without waiting for time to pass. */
  const expireTomorrow = (id: number) =>
    tokens().updateOne({ id }, { $set: { expires_at: new Date(Date.now() + 20 * HOUR) } });
  /** The alerts about a token that a session sees: the token's owner's by default (ADR 0303). */
  const sessions = new Map<number, SessionFixture>();
  const alertsFor = async (
    user: Awaited<ReturnType<typeof createUserWithToken>>,
    reader?: SessionFixture,
  ) => {
    if (!reader && !sessions.has(user.tokenId))
      sessions.set(user.tokenId, await loginSession(user, system.gatewayUrl));
    const answer = await (reader ?? sessions.get(user.tokenId)!).request(
      'GET',
      '/api/alerts?per_page=100',
    );
    expect(answer.status).toBe(200);
    return (
      answer.body.data as Array<{
        kind: string;
        recipient_user_id: number | null;
        properties: { token_id?: number };
      }>
    ).filter((alert) => alert.properties.token_id === user.tokenId);
  };

  it('a token expiring tomorrow raises one alert, not two; a revoked one raises none', async () => {
    const far = { token: { expiresAt: new Date(Date.now() + 30 * 24 * HOUR) } };
    const expiring = await createUserWithToken(system, owner.tenant, far);
    const revoked = await createUserWithToken(system, owner.tenant, far);
    const revokeSession = await loginSession(revoked, system.gatewayUrl);
    expect(
      (await revokeSession.request('DELETE', `/api/personal-access-tokens/${revoked.tokenId}`))
        .status,
    ).toBe(204);
    await expireTomorrow(revoked.tokenId);
    await expireTomorrow(expiring.tokenId);

    const [alert] = await eventually(async () => {
      const found = await alertsFor(expiring);
      expect(found).toHaveLength(1);
      return found;
    }, 'the expiry alert');
    expect(alert).toMatchObject({
      kind: 'token_expiring',
      priority: 'high',
      link: '/settings/developer/tokens',
      properties: { token_id: expiring.tokenId, stage: '1d', user_id: expiring.user.id },
      recipient_user_id: expiring.user.id,
    });
    // It is the owner's: the tenant's admin, who reads the tenant's inbox, does not get it.
    expect(await alertsFor(expiring, session)).toEqual([]);

    // A token made to expire afterwards is alerted about in a later pass of some replica; by
    // then the first one has been looked at again and again.
    const later = await createUserWithToken(system, owner.tenant, far);
    await expireTomorrow(later.tokenId);
    await eventually(async () => expect(await alertsFor(later)).toHaveLength(1), 'later');
    expect(await alertsFor(expiring)).toHaveLength(1);
    expect(await alertsFor(revoked, revokeSession)).toEqual([]);
    const stored = await tokens().findOne({ id: expiring.tokenId });
    expect(stored?.expiry_alerts).toHaveLength(1);
  });
});
