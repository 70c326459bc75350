/**
 * The gateway's public HTTP API, same origin, with the session cookie (HttpOnly, set by
 * /auth/login) and the CSRF token the login answer returns. The token lives in
 * sessionStorage so a reload in the same tab keeps working; a new tab signs in again.
 */
import type { components } from '@inventory/api-client';

const CSRF_KEY = 'inventory.csrf';

type Schemas = components['schemas'];

/** What the gateway refuses a request with: one of its documented error envelopes. */
export type ErrorBody =
  | Schemas['Unauthenticated']
  | Schemas['InvalidToken']
  | Schemas['Forbidden']
  | Schemas['MissingScope']
  | Schemas['NotFound']
  | Schemas['ValidationFailed']
  | Schemas['CodedError']
  | Schemas['TooManyRequests'];

/** A 422's messages by field; nested keys (`auto_track.rmas`) stay dotted. */
export type FieldErrors = Schemas['ValidationFailed']['errors'];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** Null when the answer was not JSON (a proxy's error page, say). */
    readonly body: ErrorBody | null,
  ) {
    super(body?.message ?? `Request failed (${status}).`);
  }

  /** Only a 422 names fields: a 401 or 404 has `errors` of another shape. */
  get fieldErrors(): FieldErrors {
    return this.status === 422 && this.body && 'errors' in this.body
      ? (this.body.errors as FieldErrors)
      : {};
  }
}

type SignedOutListener = () => void;
const signedOutListeners = new Set<SignedOutListener>();
export function onSignedOut(listener: SignedOutListener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export function setCsrfToken(token: string | null): void {
  if (token) sessionStorage.setItem(CSRF_KEY, token);
  else sessionStorage.removeItem(CSRF_KEY);
}

export interface ApiOptions {
  /** Sent as `Idempotency-Key` on the creating POSTs that take one (`newIdempotencyKey`). */
  idempotencyKey?: string;
}

export async function api<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  options: ApiOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  if (method !== 'GET') headers['x-csrf-token'] = sessionStorage.getItem(CSRF_KEY) ?? '';
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    if (response.status === 401 && !path.startsWith('/auth/login'))
      signedOutListeners.forEach((listener) => listener());
    throw new ApiError(response.status, parsed as ErrorBody | null);
  }
  return parsed as T;
}

/**
 * A fresh `Idempotency-Key`: 128 random bits in hex. `crypto.getRandomValues`, unlike
 * `randomUUID`, also works on a plain-HTTP origin.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Builds `path?query` from a record, dropping empty values; keys like `filter[status]` kept. */
export function withQuery(
  path: string,
  query: Record<string, string | number | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
