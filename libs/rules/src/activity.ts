/**
 * The activity list's rules (spec: Activity log; ADR 0301). The gateway checks the HTTP syntax
 * against them and documents them; the activity service applies them to the gRPC call.
 */
export const ACTIVITY_SORTS = ['created_at', 'event', 'id'] as const;
export type ActivitySort = (typeof ACTIVITY_SORTS)[number];

export const ACTIVITY_DEFAULT_PER_PAGE = 10;
/**
 * The spec sets no hard maximum ("at or below 100 is advised"); 1000 keeps one request from
 * reading the whole log. Above it is a 422, not a silent clamp.
 */
export const ACTIVITY_MAX_PER_PAGE = 1000;

/** The in-app alerts list (ADR 0302): a page of the bell, never the whole backlog. */
export const ALERTS_DEFAULT_PER_PAGE = 10;
export const ALERTS_MAX_PER_PAGE = 100;
