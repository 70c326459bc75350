/** Thrown by route code to answer with a given status and body; the error handler sends it as is. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
    /** The downstream service's stable reason, when the error came from one (`invalid_credentials`). */
    readonly reason?: string,
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${statusCode}`);
    this.name = 'HttpError';
  }
}
