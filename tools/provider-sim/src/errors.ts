/**
 * Provider error codes, following the 17TRACK Tracking API v2.2 code table.
 * Whole-call errors come back as `{ code, data: { errors: [{ code, message }] } }`;
 * per-number errors come back in `data.rejected[].error`.
 */
export const ErrorCode = {
  Success: 0,
  /** Wrong or missing `17token`. */
  InvalidToken: -18010002,
  /** Internal error (used for injected 5xx faults unless a code is given). */
  InternalError: -18010003,
  /** A required field is missing (e.g. `number`). */
  FieldRequired: -18010010,
  /** A field has an invalid value (per number: wrong tracking-number format). */
  FieldInvalid: -18010011,
  /** The body is not valid JSON (HTTP 400). */
  InvalidFormat: -18010012,
  /** The body is JSON but not the expected shape (HTTP 400). */
  InvalidData: -18010013,
  /** More than 40 numbers in one call (whole call rejected); also the body of an HTTP 429. */
  LimitExceeded: -18010014,
  AlreadyRegistered: -18019901,
  NotRegistered: -18019902,
  CarrierNotDetected: -18019903,
  RetrackNotStopped: -18019904,
  RetrackOnlyOnce: -18019905,
  StopNotTracking: -18019906,
  DailyLimitExceeded: -18019907,
  QuotaExhausted: -18019908,
  CarrierInvalid: -18019910,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

const messages: Record<number, string> = {
  [ErrorCode.InvalidToken]: 'Access token is invalid.',
  [ErrorCode.InternalError]: 'Internal service error, please retry later.',
  [ErrorCode.FieldRequired]: 'The field of {0} is required.',
  [ErrorCode.FieldInvalid]: 'The value of {0} is invalid.',
  [ErrorCode.InvalidFormat]: 'The format of {0} is invalid.',
  [ErrorCode.InvalidData]: 'Submitted data is invalid.',
  [ErrorCode.LimitExceeded]: 'The submitted tracking numbers exceed the limit of 40.',
  [ErrorCode.AlreadyRegistered]:
    "The tracking number '{0}' has been registered, don't need to repeat registration.",
  [ErrorCode.NotRegistered]: "The tracking number '{0}' does not register, please register first.",
  [ErrorCode.CarrierNotDetected]: 'Carrier cannot be detected.',
  [ErrorCode.RetrackNotStopped]: 'Retrack is not allowed. You can only retrack stopped number.',
  [ErrorCode.RetrackOnlyOnce]: 'Retrack is not allowed. You can only retrack each number once.',
  [ErrorCode.StopNotTracking]:
    'Stop tracking is not allowed. You can only stop numbers that are being tracked.',
  [ErrorCode.DailyLimitExceeded]: 'Exceeded daily request limit.',
  [ErrorCode.QuotaExhausted]: 'Quota is not enough for use.',
  [ErrorCode.CarrierInvalid]: "The value of carrier '{0}' is not correct.",
};

/** The provider's message for a code, with `{0}` replaced by `arg`. */
export function errorMessage(code: number, arg = ''): string {
  const template = messages[code] ?? `Error ${code}.`;
  return template.replace('{0}', arg);
}

export interface ProviderError {
  code: number;
  message: string;
}

export interface ErrorEnvelope {
  code: number;
  data: { errors: ProviderError[] };
}

/** Whole-call error body. */
export function errorEnvelope(code: number, message = errorMessage(code)): ErrorEnvelope {
  return { code, data: { errors: [{ code, message }] } };
}
