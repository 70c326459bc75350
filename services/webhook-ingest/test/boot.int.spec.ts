import { describeFailedStart, describeServiceBoot } from '@inventory/test-kit';
import { bootstrap } from '../src/bootstrap.js';

describeServiceBoot(
  'webhook-ingest',
  bootstrap,
  {},
  {
    metrics: ['webhook_ingest_received_total', 'webhook_ingest_processed_total'],
    retention: [{ collection: 'webhook_events', field: 'received_at', days: 30 }],
  },
);

describeFailedStart('webhook-ingest', bootstrap);
