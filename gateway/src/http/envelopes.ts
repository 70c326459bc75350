/**
 * The specification's error bodies, in one place. Every 4xx the gateway sends
 * is built here, so the shapes cannot drift between routes.
 */
export type NotFoundBody = {
  errors: { url: Array<{ message: string; code: 'NotFound'; data: [] }> };
  status: 'failure';
  message: string;
};

export function notFoundBody(message = 'The requested resource could not be found.'): NotFoundBody {
  return { errors: { url: [{ message, code: 'NotFound', data: [] }] }, status: 'failure', message };
}

export function unauthenticatedBody(): { message: string } {
  return { message: 'Unauthenticated.' };
}

/** 401 for a well-formed token that is unknown, expired, revoked or another tenant's. */
export function invalidTokenBody(message = 'The access token is invalid, expired or revoked.') {
  return {
    errors: { token: [{ message, code: 'Unauthorized', data: [] }] },
    status: 'failure',
    message,
  };
}

export function forbiddenBody(message: string, requiredScope?: string) {
  return requiredScope ? { message, required_scope: requiredScope } : { message };
}

export function validationBody(errors: Record<string, string[]>, message?: string) {
  const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
  const extra = Object.values(errors).reduce((count, list) => count + list.length, 0) - 1;
  // Laravel's summary: the first message, plus how many more there are.
  const summary =
    message ?? (extra > 0 ? `${first} (and ${extra} more error${extra > 1 ? 's' : ''})` : first);
  return { message: summary, errors };
}

export function codeBody(code: string, message: string) {
  return { message, code };
}

export function tooManyRequestsBody(retryAfterSeconds: number) {
  return { message: 'Too Many Attempts.', retry_after_seconds: retryAfterSeconds };
}

/** 503 while the gateway drains for shutdown: the client should retry (another replica answers). */
export function shuttingDownBody() {
  return codeBody('shutting_down', 'The server is shutting down. Try again shortly.');
}

/** A request the HTTP parser refused (bad header bytes, framing, no Host): 400. */
export function malformedRequestBody(message = 'The request is malformed.') {
  return codeBody('malformed_request', message);
}

/** 431: the request line or headers (a huge query or token included) exceed the server's limit. */
export function headersTooLargeBody() {
  return codeBody(
    'request_header_fields_too_large',
    'The request headers (or the URL) are too large.',
  );
}
