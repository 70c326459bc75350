import { ALERTS_DEFAULT_PER_PAGE, ALERTS_MAX_PER_PAGE, readPage } from '@inventory/rules';
import { ALERT_KINDS, ALERT_PRIORITIES } from '@inventory/events';
import type { FieldViolation } from '@inventory/platform';
import { parseProperties, type Properties } from './properties.js';

export const MAX_ALERT_KEY_LENGTH = 255;
export const MAX_ALERT_TITLE_LENGTH = 255;
export const MAX_ALERT_MESSAGE_LENGTH = 2000;
export const MAX_ALERT_LINK_LENGTH = 2000;

export interface AlertFields {
  key: string;
  kind: string;
  priority: string;
  title: string;
  message: string;
  link: string;
  properties_json: string;
  /** 0: the tenant's alert inbox. */
  recipient_user_id: number;
}

export interface ValidAlert {
  key: string;
  kind: string;
  priority: string;
  title: string;
  message: string;
  link: string | null;
  properties: Properties;
  /** The one user it is for; null: the tenant's inbox, for users holding alerts:view (ADR 0303). */
  recipient_user_id: number | null;
}

/** Who is reading: a user sees alerts addressed to them, and the inbox if they hold alerts:view. */
export interface AlertReader {
  userId: number;
  tenantInbox: boolean;
}

const isOneOf = (list: readonly string[], value: string) => list.includes(value);

/**
 * Checks a raised alert. The link must be a relative web-app path (`/...`, not `//host`),
 * so an alert can never send an admin off-site.
 */
export function validateAlert(
  fields: AlertFields,
): { alert: ValidAlert } | { violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const key = fields.key.trim();
  if (key === '' || key.length > MAX_ALERT_KEY_LENGTH)
    violations.push({
      field: 'key',
      description: `The key must be 1 to ${MAX_ALERT_KEY_LENGTH} characters.`,
    });
  if (!isOneOf(ALERT_KINDS, fields.kind))
    violations.push({
      field: 'kind',
      description: `The kind must be one of ${ALERT_KINDS.join(', ')}.`,
    });
  const priority = fields.priority === '' ? 'normal' : fields.priority;
  if (!isOneOf(ALERT_PRIORITIES, priority))
    violations.push({
      field: 'priority',
      description: `The priority must be one of ${ALERT_PRIORITIES.join(', ')}.`,
    });
  const title = fields.title.trim();
  if (title === '' || title.length > MAX_ALERT_TITLE_LENGTH)
    violations.push({
      field: 'title',
      description: `The title must be 1 to ${MAX_ALERT_TITLE_LENGTH} characters.`,
    });
  if (fields.message.length > MAX_ALERT_MESSAGE_LENGTH)
    violations.push({
      field: 'message',
      description: `The message may have at most ${MAX_ALERT_MESSAGE_LENGTH} characters.`,
    });
  const link = fields.link.trim();
  if (
    link !== '' &&
    (!link.startsWith('/') || link.startsWith('//') || link.length > MAX_ALERT_LINK_LENGTH)
  )
    violations.push({ field: 'link', description: 'The link must be a relative path.' });
  const recipient = fields.recipient_user_id ?? 0;
  if (!Number.isSafeInteger(recipient) || recipient < 0)
    violations.push({
      field: 'recipient_user_id',
      description: 'The recipient must be a user id, or 0 for the tenant inbox.',
    });
  const properties = parseProperties(fields.properties_json);
  if (!properties.ok) violations.push({ field: 'properties_json', description: properties.error });
  if (violations.length > 0 || !properties.ok) return { violations };
  return {
    alert: {
      key,
      kind: fields.kind,
      priority,
      title,
      message: fields.message,
      link: link === '' ? null : link,
      properties: properties.properties,
      recipient_user_id: recipient === 0 ? null : recipient,
    },
  };
}

/** Page and per_page of a ListAlerts call (0 means the default). */
export function toAlertPage(
  input: { page: number; per_page: number } | undefined,
): { page: number; perPage: number } | { violations: FieldViolation[] } {
  const { page, perPage, violations } = readPage(input, {
    defaultPerPage: ALERTS_DEFAULT_PER_PAGE,
    maxPerPage: ALERTS_MAX_PER_PAGE,
  });
  return violations.length > 0 ? { violations } : { page, perPage };
}
