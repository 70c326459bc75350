import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectMongo, Outbox } from '@inventory/platform';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expiryMark } from '../src/domain/expiry-alerts.js';
import type { TokenDocument } from '../src/store/token.js';
import { TokenRepository } from '../src/store/token-repository.js';
import { UserRepository } from '../src/store/user-repository.js';
import { RaiseExpiryAlerts } from '../src/use-cases/raise-expiry-alerts.js';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

/** One identity replica's view: its own connection, repositories and outbox. */
function replica(connection: Connection) {
  const tokens = new TokenRepository(connection);
  return {
    tokens,
    alerts: new RaiseExpiryAlerts(tokens, new UserRepository(connection), new Outbox(connection)),
  };
}

describe('token expiry alerts: once per stage and expiry, across replicas (ADR 0118)', () => {
  let infra: TestInfra;
  let connections: Connection[];
  let a: ReturnType<typeof replica>;
  let b: ReturnType<typeof replica>;
  const start = new Date('2026-03-01T09:00:00Z');
  let nextId = 5_000;

  beforeAll(async () => {
    infra = await startTestInfra({ nats: false, redis: false });
    const dbName = infra.dbName('expiry-alerts');
    connections = [
      await connectMongo(infra.mongoUrl, dbName),
      await connectMongo(infra.mongoUrl, dbName),
    ];
    a = replica(connections[0]!);
    b = replica(connections[1]!);
  });
  afterAll(async () => {
    for (const connection of connections ?? []) await connection.close();
    await infra?.stop();
  });

  async function token(tenantId: string, expiresAt: Date | null, revoked = false) {
    const id = nextId++;
    const document: TokenDocument = {
      tenant_id: tenantId,
      id,
      user_id: 1,
      name: `token-${id}`,
      secret_hash: `${id}`.padStart(64, '0'),
      scopes: [],
      ip_allowlist: [],
      rate_limit_per_minute: null,
      expires_at: expiresAt,
      revoked_at: revoked ? start : null,
      last_used_at: null,
      created_at: start,
      updated_at: start,
    };
    await a.tokens.insertAll(tenantId, [document]);
    return document;
  }

  /** The alert events both replicas put in the outbox for one token, by their ids. */
  async function alertsOf(tenantId: string, tokenId: number): Promise<string[]> {
    const rows = await connections[0]!
      .collection('outbox')
      .find({
        subject: 'activity.alert.raised',
        event_id: { $regex: `^alert:${tenantId}:token_expiry:${tokenId}:` },
      })
      .toArray();
    return rows.map((row) => String(row.event_id)).sort();
  }

  const bothRun = (now: Date) => Promise.all([a.alerts.execute(now), b.alerts.execute(now)]);

  it('two replicas raising at the same moment make one alert per token, and a later pass none', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        token('t-many', new Date(start.getTime() + 6 * DAY + n * HOUR)),
      ),
    );
    const [first, second] = await bothRun(start);
    expect(first! + second!).toBe(12);
    for (const one of tokens)
      expect(await alertsOf('t-many', one.id)).toEqual([
        `alert:t-many:token_expiry:${one.id}:${expiryMark('7d', one.expires_at!)}`,
      ]);
    expect(await bothRun(new Date(start.getTime() + HOUR))).toEqual([0, 0]);
  });

  it('7 days, then 1 day, then expired: three alerts for one token, each once', async () => {
    const expiresAt = new Date(start.getTime() + 5 * DAY);
    const one = await token('t-stages', expiresAt);
    await bothRun(start);
    await bothRun(new Date(expiresAt.getTime() - 12 * HOUR));
    await bothRun(new Date(expiresAt.getTime() - 11 * HOUR));
    await bothRun(new Date(expiresAt.getTime() + HOUR));
    await bothRun(new Date(expiresAt.getTime() + 2 * HOUR));
    expect(await alertsOf('t-stages', one.id)).toEqual(
      [
        `alert:t-stages:token_expiry:${one.id}:${expiryMark('7d', expiresAt)}`,
        `alert:t-stages:token_expiry:${one.id}:${expiryMark('1d', expiresAt)}`,
        `alert:t-stages:token_expiry:${one.id}:${expiryMark('expired', expiresAt)}`,
      ].sort(),
    );
  });

  it('a revoked token, one that never expires and one extended before the pass are not warned', async () => {
    const revoked = await token('t-quiet', new Date(start.getTime() + 2 * DAY), true);
    const never = await token('t-quiet', null);
    const extended = await token('t-quiet', new Date(start.getTime() + 2 * DAY));
    await connections[0]!
      .collection('personal_access_tokens')
      .updateOne(
        { id: extended.id },
        { $set: { expires_at: new Date(start.getTime() + 60 * DAY) } },
      );
    await bothRun(start);
    for (const quiet of [revoked, never, extended])
      expect(await alertsOf('t-quiet', quiet.id)).toEqual([]);
  });

  it('a pass that read the old expiry cannot claim it once the token was extended or revoked', async () => {
    const expiresAt = new Date(start.getTime() + 2 * DAY);
    const extended = await token('t-race', expiresAt);
    const revoked = await token('t-race', expiresAt);
    const tokens = connections[0]!.collection('personal_access_tokens');
    await tokens.updateOne(
      { id: extended.id },
      { $set: { expires_at: new Date(start.getTime() + 60 * DAY) } },
    );
    await tokens.updateOne({ id: revoked.id }, { $set: { revoked_at: start } });
    const mark = expiryMark('7d', expiresAt);
    expect(await a.tokens.claimExpiryAlert('t-race', extended.id, expiresAt, mark)).toBe(false);
    expect(await a.tokens.claimExpiryAlert('t-race', revoked.id, expiresAt, mark)).toBe(false);
    // Another tenant's token of the same id is out of reach too.
    const own = await token('t-race', expiresAt);
    expect(await a.tokens.claimExpiryAlert('t-elsewhere', own.id, expiresAt, mark)).toBe(false);
    expect(await a.tokens.claimExpiryAlert('t-race', own.id, expiresAt, mark)).toBe(true);
    expect(await b.tokens.claimExpiryAlert('t-race', own.id, expiresAt, mark)).toBe(false);
  });
});
