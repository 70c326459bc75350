import { flatEnvelopeSchema } from '../../http/page-schemas.js';
import { dataOf, row } from '../../http/row-schema.js';

/** What the alert routes answer (present-alert.ts builds the row). */
export const ALERT_ROW = row({
  id: 'integer',
  kind: 'string',
  priority: 'string',
  title: 'string',
  message: 'string',
  link: { type: ['string', 'null'], description: 'Relative web-app path' },
  properties: 'object',
  read_at: { type: ['string', 'null'], format: 'date-time', description: 'null while unread' },
  created_at: 'date-time',
  recipient_user_id: {
    type: ['integer', 'null'],
    description: "The one user it is for (a token's owner); null for the tenant's alert inbox",
  },
});

export const alertSchemas = {
  list: {
    response: {
      200: flatEnvelopeSchema(ALERT_ROW, { unread_count: { type: 'integer' } }),
    },
  },
  markRead: { response: { 200: dataOf(ALERT_ROW) } },
  markAllRead: { response: { 200: dataOf(row({ marked: 'integer' })) } },
};
