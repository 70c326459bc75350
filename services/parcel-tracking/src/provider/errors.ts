/** The two ways a provider call fails, as the specification names them. */
export type ProviderErrorCode = 'invalid_key' | 'api_error';

export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    /**
     * HTTP status or provider code, for logs; never shown to clients verbatim. `unreachable`: no
     * answer at all (connection failed, timed out), which only the shared breaker counts.
     */
    readonly detail: { httpStatus?: number; providerCode?: number; unreachable?: boolean } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export const INVALID_KEY_CODE = -18010002;
/** Register: "already registered", which clients treat as success. */
export const ALREADY_REGISTERED_CODE = -18019901;
/** Retrack: the number is not stopped, so the account tracks it already. */
export const RETRACK_NOT_STOPPED_CODE = -18019904;
/** Retrack: the number was retracked once already; only a new registration tracks it again. */
export const RETRACK_ONLY_ONCE_CODE = -18019905;
/**
 * Register rejections that pass with time (today's limit, the quota until it is topped up): the
 * row is retried with back-off. Every other rejection is final for the number (ADR 0212).
 */
export const RETRYABLE_REGISTER_CODES: ReadonlySet<number> = new Set([-18019907, -18019908]);

/**
 * The one classification of a failed call: HTTP 401 or code -18010002 is a
 * rejected key; anything else (429, 5xx, timeouts, other negative codes, an
 * open breaker) is an API error.
 */
export function classifyFailure(
  httpStatus: number | undefined,
  providerCode: number | undefined,
  message: string,
): ProviderError {
  if (httpStatus === 401 || providerCode === INVALID_KEY_CODE) {
    return new ProviderError('invalid_key', 'The provider rejected the API key.', {
      httpStatus,
      providerCode,
    });
  }
  return new ProviderError('api_error', message, { httpStatus, providerCode });
}
