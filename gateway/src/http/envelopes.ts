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
