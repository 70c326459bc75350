import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { withScripts, type Redis } from '@inventory/platform';
import type { IdempotencyEntry } from './idempotency-key.js';

/** A first answer as it is replayed. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a key's first request left, as the store hands it back. */
export type Claim =
  | { state: 'run'; lock: string }
  | { state: 'replay'; answer: StoredAnswer }
  /** The key was used with another method, path or body. */
  | { state: 'mismatch' }
  /** A request with the key is still running (whatever its body: its answer is not known yet). */
  | { state: 'in-flight' };

/**
 * The answer if the key has one, else the lock if nobody holds it, else who holds it: one round
 * trip, atomic, so two replicas given one key at once cannot both run it.
 */
const CLAIM = `
local done = redis.call('GET', KEYS[1])
if done then return {'done', done} end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'run', ''} end
return {'busy', ''}
`;

/** The answer kept, and the lock dropped, only by the request that holds the lock. */
const SETTLE = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
redis.call('DEL', KEYS[2])
return 1
`;

interface IdempotencyScripts {
  idempotencyClaim(record: string, lock: string, value: string, leaseMs: string): Promise<string[]>;
  idempotencySettle(
    record: string,
    lock: string,
    value: string,
    answer: string,
    ttlMs: string,
  ): Promise<number>;
}

export interface IdempotencyStoreOptions {
  /** How long a first answer is kept (24 h by default). */
  ttlMs: number;
  /** The lock's lease: longer than any request runs, so a crashed replica's lock still ends. */
  leaseMs: number;
}

/**
 * Keys and answers in Redis, shared by every replica. Redis holds neither the client's key nor
 * the answer in clear: entries are named by a hash of the owner and the key, and answers (a new
 * token's or signing secret's only showing among them) are sealed with AES-256-GCM under a key
 * derived from the same two, which only the client holds.
 */
export class IdempotencyStore {
  private readonly redis: Redis & IdempotencyScripts;

  constructor(
    redis: Redis,
    private readonly options: IdempotencyStoreOptions,
  ) {
    this.redis = withScripts<IdempotencyScripts>(redis, {
      idempotencyClaim: { numberOfKeys: 2, lua: CLAIM },
      idempotencySettle: { numberOfKeys: 2, lua: SETTLE },
    });
  }

  /** Seals a request's fingerprint: Redis sees the same value for the same request, nothing more. */
  private sealedFingerprint(entry: IdempotencyEntry, fingerprint: string): string {
    return createHmac('sha256', entry.secret).update(fingerprint).digest('base64url');
  }

  async claim(entry: IdempotencyEntry, fingerprint: string): Promise<Claim> {
    const sealed = this.sealedFingerprint(entry, fingerprint);
    const lock = `${sealed}.${randomBytes(9).toString('base64url')}`;
    const [state, value = ''] = await this.redis.idempotencyClaim(
      entry.record,
      entry.lock,
      lock,
      String(this.options.leaseMs),
    );
    if (state === 'run') return { state: 'run', lock };
    if (state === 'busy') return { state: 'in-flight' };
    const stored = open(entry.secret, value);
    if (!stored || stored.fingerprint !== sealed) return { state: 'mismatch' };
    return { state: 'replay', answer: stored.answer };
  }

  /** Keeps the answer for the key's lifetime and releases the lock; without an answer, only releases. */
  async settle(entry: IdempotencyEntry, lock: string, answer?: StoredAnswer): Promise<void> {
    const fingerprint = lock.slice(0, lock.indexOf('.'));
    const sealed = answer ? seal(entry.secret, { fingerprint, answer }) : '';
    await this.redis.idempotencySettle(
      entry.record,
      entry.lock,
      lock,
      sealed,
      String(this.options.ttlMs),
    );
  }
}

interface Sealed {
  fingerprint: string;
  answer: StoredAnswer;
}

function seal(secret: Buffer, value: Sealed): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url')).join('.');
}

/** Undefined for anything that does not open under this key (another release's format included). */
function open(secret: Buffer, text: string): Sealed | undefined {
  const [iv, tag, data] = text.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !data || iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', secret, iv);
    decipher.setAuthTag(tag);
    const json = Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    return JSON.parse(json) as Sealed;
  } catch {
    return undefined;
  }
}
