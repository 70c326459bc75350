import { linksMetaEnvelopeSchema } from '../../http/page-schemas.js';
import { row } from '../../http/row-schema.js';

/** One activity row (present-activity.ts builds it). */
export const ACTIVITY_ROW = row({
  id: 'integer',
  event: 'string',
  description: 'string',
  subject_type: 'string?',
  subject_id: 'integer?',
  causer_id: {
    type: ['integer', 'string', 'null'],
    description: 'A user id; a non-numeric causer id is passed through as text',
  },
  properties: 'object',
  created_at: 'date-time',
});

export const activitySchemas = {
  list: { response: { 200: linksMetaEnvelopeSchema(ACTIVITY_ROW) } },
};
