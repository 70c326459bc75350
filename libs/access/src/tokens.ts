/**
 * How many unrevoked, unexpired personal access tokens one user may hold (the specification's
 * Authentication rule 4): identity enforces it, the web app disables creation at it.
 */
export const MAX_ACTIVE_TOKENS = 50;
