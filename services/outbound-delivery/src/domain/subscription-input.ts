import { isWebhookEventName } from '@inventory/events';
import { readContentFilter } from './content-filter.js';
import type { FieldViolation } from '@inventory/platform';
import { controlCharactersMessage, hasControlCharacters } from '@inventory/rules';
import {
  checkResolvedHost,
  checkUrlShape,
  type ReceiverPolicy,
  type Resolve,
} from './receiver-url.js';

export const MAX_DESCRIPTION_LENGTH = 1000;

/** `events`: at least one, each a catalog event; duplicates collapse. */
export function checkEvents(violations: FieldViolation[], events: readonly string[]): string[] {
  if (events.length === 0) {
    violations.push({
      field: 'events',
      description: 'The events field must name at least one event.',
    });
    return [];
  }
  events.forEach((event, index) => {
    if (!isWebhookEventName(event))
      violations.push({
        field: `events.${index}`,
        description: `The event "${event.slice(0, 100)}" is not in the webhook event catalog.`,
      });
  });
  return [...new Set(events)];
}

export function checkDescription(
  violations: FieldViolation[],
  description: string | undefined,
): void {
  if (description !== undefined && description.length > MAX_DESCRIPTION_LENGTH)
    violations.push({
      field: 'description',
      description: `The description may not be greater than ${MAX_DESCRIPTION_LENGTH} characters.`,
    });
  else if (description !== undefined && hasControlCharacters(description, { lineBreaks: true }))
    violations.push({ field: 'description', description: controlCharactersMessage('description') });
}

/** Every rule of a receiver URL, DNS included; adds at most one violation on `url`. */
export async function checkReceiverUrl(
  violations: FieldViolation[],
  raw: string | undefined,
  policy: ReceiverPolicy,
  resolve: Resolve,
): Promise<void> {
  if (raw === undefined || raw.trim() === '') {
    violations.push({ field: 'url', description: 'The url field is required.' });
    return;
  }
  const shape = checkUrlShape(raw, policy);
  if (!shape.ok) {
    violations.push({ field: 'url', description: shape.message });
    return;
  }
  const refused = await checkResolvedHost(shape.url, policy, resolve);
  if (refused) violations.push({ field: 'url', description: refused });
}

/**
 * `filter`, as JSON text (ADR 0418): answers the checked filter's JSON, or null for none (`"null"`,
 * `{}`); undefined when it is refused, with one violation on `filter` naming the bad part.
 */
export function checkFilter(
  violations: FieldViolation[],
  filterJson: string,
): string | null | undefined {
  let value: unknown;
  try {
    value = JSON.parse(filterJson);
  } catch {
    violations.push({ field: 'filter', description: 'The filter must be JSON.' });
    return undefined;
  }
  const read = readContentFilter(value);
  if ('problem' in read) {
    violations.push({ field: 'filter', description: read.problem });
    return undefined;
  }
  return read.filter === null ? null : JSON.stringify(read.filter);
}

/** Gateway type errors first, then the service's own, so one 422 names every bad field. */
export function mergeViolations(
  input: readonly FieldViolation[],
  own: readonly FieldViolation[],
): FieldViolation[] {
  const typed = new Set(input.map((violation) => violation.field));
  return [...input, ...own.filter((violation) => !typed.has(violation.field))];
}
