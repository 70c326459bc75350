import type { FieldViolation } from '@inventory/platform';

import {
  ACTIVITY_DEFAULT_PER_PAGE,
  ACTIVITY_MAX_PER_PAGE,
  ACTIVITY_SORTS,
  pageInfo,
  parseIsoDay,
  startOfDay,
  withIdTiebreak,
  type ActivitySort,
  type PageInfo,
  readPage,
} from '@inventory/rules';

/** The sorts, page limits and page arithmetic are shared: one definition in @inventory/rules. */
export { ACTIVITY_MAX_PER_PAGE as MAX_PER_PAGE, pageInfo, withIdTiebreak, type PageInfo };
type SortableField = ActivitySort;
export interface SortKey {
  field: SortableField;
  descending: boolean;
}

export const DEFAULT_SORT: SortKey[] = [
  { field: 'created_at', descending: true },
  { field: 'id', descending: true },
];

/** A validated list query: every bound resolved, every list de-duplicated. */
export interface ActivityQuery {
  integrationInstanceId?: number;
  /** Earlier, disconnected instances whose rows count as the instance's history (ADR 0215). */
  historyInstanceIds?: number[];
  eventTypes: string[];
  causerIds: string[];
  search: string;
  /** Only rows about this shipment's number (`properties.tracking_number`, whole, any case). */
  trackingNumber?: string;
  createdFrom?: Date;
  createdTo?: Date;
  sort: SortKey[];
  page: number;
  perPage: number;
}

export interface ActivityQueryInput {
  integration_instance_id?: number | undefined;
  history_instance_ids?: number[] | undefined;
  event_types: string[];
  causer_ids: string[];
  search: string;
  tracking_number?: string | undefined;
  created?: { from?: string | undefined; to?: string | undefined } | undefined;
  sort: Array<{ field: string; descending: boolean }>;
  page?: { page: number; per_page: number } | undefined;
}

// Full timestamps must carry a zone, so the same text never means two instants.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A bound is a day (`YYYY-MM-DD`, whole UTC day: `from` at its first millisecond,
 * `to` at its last, so both ends are inclusive) or a zoned ISO timestamp taken as is.
 */
export function parseDateBound(text: string, end: 'from' | 'to'): Date | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    // A day that does not exist (02/30) is refused, never rolled over to March.
    const day = parseIsoDay(text);
    if (!day) return undefined;
    const start = startOfDay(day);
    return end === 'from' ? start : new Date(start.getTime() + 86_400_000 - 1);
  }
  if (!TIMESTAMP.test(text)) return undefined;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

const unique = (values: string[]) => [
  ...new Set(values.map((value) => value.trim()).filter((value) => value !== '')),
];

/** Validates a ListActivities request; returns the query or the fields at fault. */
export function toActivityQuery(
  input: ActivityQueryInput,
): { query: ActivityQuery } | { violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const instanceId = input.integration_instance_id;
  if (instanceId !== undefined && (!Number.isSafeInteger(instanceId) || instanceId <= 0)) {
    violations.push({
      field: 'integration_instance_id',
      description: 'The integration instance id must be a positive integer.',
    });
  }
  const history = [...new Set(input.history_instance_ids ?? [])];
  if (
    history.some((id) => !Number.isSafeInteger(id) || id <= 0) ||
    (history.length > 0 && instanceId === undefined)
  ) {
    violations.push({
      field: 'history_instance_ids',
      description:
        'History instance ids must be positive integers, given with integration_instance_id.',
    });
  }

  const bounds: { from?: Date; to?: Date } = {};
  for (const end of ['from', 'to'] as const) {
    const text = input.created?.[end];
    if (text === undefined || text === '') continue;
    const bound = parseDateBound(text, end);
    if (bound) bounds[end] = bound;
    else
      violations.push({
        field: `created.${end}`,
        description: `The created.${end} bound must be a date YYYY-MM-DD or a zoned ISO 8601 timestamp.`,
      });
  }

  const sort: SortKey[] = [];
  for (const key of input.sort) {
    if (!(ACTIVITY_SORTS as readonly string[]).includes(key.field)) {
      violations.push({
        field: 'sort',
        description: `Sorting by ${key.field || '(empty)'} is not allowed. Allowed sorts are ${ACTIVITY_SORTS.join(', ')}.`,
      });
    } else if (!sort.some((existing) => existing.field === key.field)) {
      sort.push({ field: key.field as SortableField, descending: key.descending });
    }
  }

  const {
    page,
    perPage,
    violations: pageViolations,
  } = readPage(input.page, {
    defaultPerPage: ACTIVITY_DEFAULT_PER_PAGE,
    maxPerPage: ACTIVITY_MAX_PER_PAGE,
  });
  violations.push(...pageViolations);
  if (violations.length > 0) return { violations };

  return {
    query: {
      ...(instanceId === undefined ? {} : { integrationInstanceId: instanceId }),
      ...(history.length === 0 ? {} : { historyInstanceIds: history }),
      eventTypes: unique(input.event_types),
      causerIds: unique(input.causer_ids),
      search: input.search.trim(),
      ...(input.tracking_number?.trim() ? { trackingNumber: input.tracking_number.trim() } : {}),
      ...(bounds.from ? { createdFrom: bounds.from } : {}),
      ...(bounds.to ? { createdTo: bounds.to } : {}),
      sort: withIdTiebreak(sort.length > 0 ? sort : DEFAULT_SORT),
      page,
      perPage,
    },
  };
}
