/**
 * How many unrevoked, unexpired personal access tokens one user may hold (the specification's
 * Authentication rule 4): identity enforces it, the web app disables creation at it.
 */
export const MAX_ACTIVE_TOKENS = 50;

/**
 * The response header that carries the presenting token's expiry (ISO 8601, UTC) on every
 * token-authenticated answer; absent for a token that never expires (ADR 0113). GitHub's
 * `GitHub-Authentication-Token-Expiration` without the vendor prefix.
 */
export const TOKEN_EXPIRATION_HEADER = 'Authentication-Token-Expiration';
