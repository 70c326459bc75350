import { createHash } from 'node:crypto';
import type { RequestAuth, ResolvedTenant } from '../auth/types.js';

/** The request header (draft-ietf-httpapi-idempotency-key-header) and the replay marker (Stripe's). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

export const MAX_KEY_LENGTH = 255;

/**
 * Printable ASCII, space allowed inside but not at either end (HTTP trims those): no control
 * characters, so no NUL, and nothing a log line or a Redis key would have to escape.
 */
const KEY_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * The key as the client sent it, or a reason it is refused. The draft spells the field as a
 * Structured Field String (`"8e03…"`), Stripe's clients send the bare value: both are taken, and
 * both spellings of one key are the same key.
 */
export function readIdempotencyKey(
  value: string | string[] | undefined,
  rawHeaders: string[] = [],
): { key: string } | { refused: string } | undefined {
  if (value === undefined) return undefined;
  // Two fields would be two keys (the draft's field is a single Item); Node joins them with ", ".
  if (Array.isArray(value) || fieldCount(rawHeaders, IDEMPOTENCY_KEY_HEADER) > 1)
    return { refused: 'The Idempotency-Key header must be sent once.' };
  const quoted = /^"([^"\\]*)"$/.exec(value);
  const key = quoted ? quoted[1]! : value;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key))
    return {
      refused: `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters.`,
    };
  return { key };
}

/** How many times a field was sent (`rawHeaders` alternates names and values). */
function fieldCount(rawHeaders: string[], name: string): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2)
    if (rawHeaders[index]!.toLowerCase() === name) count += 1;
  return count;
}

/**
 * Who a key belongs to: the tenant and the token, or the tenant and the signed-in user (every
 * session of one user shares its keys, as a user retrying from another tab expects).
 */
export interface KeyOwner {
  tenantId: string;
  credential: { tokenId: number } | { userId: number };
}

export function keyOwner(tenant: ResolvedTenant, auth: RequestAuth): KeyOwner {
  return {
    tenantId: tenant.id,
    credential: auth.kind === 'token' ? { tokenId: auth.tokenId } : { userId: auth.user.id },
  };
}

/** Where one owner's key lives in Redis (its answer, its lock), and the sealing key for its answer. */
export interface IdempotencyEntry {
  record: string;
  lock: string;
  secret: Buffer;
}

export function idempotencyEntry(owner: KeyOwner, key: string): IdempotencyEntry {
  const who =
    'tokenId' in owner.credential
      ? `token:${owner.credential.tokenId}`
      : `user:${owner.credential.userId}`;
  const material = `${owner.tenantId}:${who}\n${key}`;
  const name = createHash('sha256').update(`name\n${material}`).digest('base64url');
  const secret = createHash('sha256').update(`seal\n${material}`).digest();
  // One hash slot for the answer and its lock (a cluster runs the scripts on one node).
  return { record: `idem:{${name}}`, lock: `idem:{${name}}:lock`, secret };
}

/**
 * The Redis name of the lock a request with `key` holds while it runs: for suites that hold a
 * key as an in-flight request would (the test-e2e contract files' 409).
 */
export function idempotencyLockName(owner: KeyOwner, key: string): string {
  return idempotencyEntry(owner, key).lock;
}

/** JSON with every object's keys sorted: one body written in two key orders is one body. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What "the same request" means: method, path with its query, and the body as parsed (so
 * whitespace and key order do not make two requests differ; values and types do).
 */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  const hash = createHash('sha256').update(`${method.toUpperCase()} ${url}\n`);
  if (Buffer.isBuffer(body)) hash.update('raw\n').update(body);
  else hash.update('json\n').update(canonical(body));
  return hash.digest('base64url');
}
