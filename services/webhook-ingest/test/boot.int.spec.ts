import { describeFailedStart, describeServiceBoot } from '@inventory/local-infra';
import { bootstrap } from '../src/bootstrap.js';

describeServiceBoot(
  'webhook-ingest',
  bootstrap,
  {},
  { metrics: ['webhook_ingest_received_total', 'webhook_ingest_processed_total'] },
);

describeFailedStart('webhook-ingest', bootstrap);
