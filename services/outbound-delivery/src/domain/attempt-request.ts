import { BoundedMemo } from '@inventory/platform';

/**
 * What the delivery log keeps of an attempt's request (ADR 0419): enough to see what the receiver
 * got, nothing that would let a reader of the log impersonate the platform or the receiver.
 * - The URL loses its password and the values of query parameters named like credentials
 *   (`token`, `key`, `secret`, `signature`, `password`, `auth`, `code`, `sig`…).
 * - The signature headers keep their scheme and lose their value: with the body and timestamp,
 *   a full signature is a request anyone could replay within the receiver's window.
 * The signing secret itself is never sent, so no header holds it.
 */
export const REDACTED = '[redacted]';

const CREDENTIAL_PARAM = /(token|key|secret|sig|signature|password|passwd|pwd|auth|code|session)/i;

/** URLs already redacted: a pure function of the URL, and the same few URLs take every attempt. */
const redactedUrls = new BoundedMemo(redact);

export function redactedUrl(raw: string): string {
  return redactedUrls.get(raw);
}

function redact(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return REDACTED;
  }
  if (url.password) url.password = REDACTED;
  for (const name of new Set(url.searchParams.keys()))
    if (CREDENTIAL_PARAM.test(name)) url.searchParams.set(name, REDACTED);
  return url.toString();
}

/** The headers as sent, signature values masked (`sha256=`, `v1,` kept so the scheme shows). */
export function redactedHeaders(
  headers: Record<string, string>,
  signatureHeaders: readonly string[],
): Record<string, string> {
  const masked = signatureHeaders.map((name) => name.toLowerCase());
  const kept: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name]!;
    kept[name] = masked.includes(name.toLowerCase()) ? maskSignatures(value) : value;
  }
  return kept;
}

/** Each space-separated signature keeps its `scheme=` or `scheme,` prefix. */
const maskSignatures = (value: string) =>
  value
    .split(' ')
    .map((signature) => {
      const prefix = /^[A-Za-z0-9]+[=,]/.exec(signature)?.[0] ?? '';
      return `${prefix}${REDACTED}`;
    })
    .join(' ');
