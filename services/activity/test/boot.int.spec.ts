import { describeServiceBoot } from '@inventory/test-kit';
import { bootstrap } from '../src/bootstrap.js';

describeServiceBoot(
  'activity',
  bootstrap,
  { ALERT_RETENTION_DAYS: '30' },
  {
    retention: [
      { collection: 'activities', field: 'stored_at', days: 365 },
      { collection: 'alerts', field: 'stored_at', days: 30 },
    ],
  },
);
