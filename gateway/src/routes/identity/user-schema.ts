import { row } from '../../http/row-schema.js';

/** The user as every identity answer shows it (present.ts `presentUser`). */
export const USER_ROW = row({
  id: 'integer',
  name: 'string',
  email: 'string',
  is_owner: 'boolean',
  permissions: 'string[]',
  two_factor_enabled: 'boolean',
  created_at: 'date-time?',
});
