import { describeServiceBoot } from '@inventory/test-kit';
import { bootstrap } from '../src/bootstrap.js';

describeServiceBoot(
  'parcel-tracking',
  bootstrap,
  {},
  {
    redis: true,
    metrics: [
      'parcel_provider_calls_total',
      'parcel_provider_call_seconds',
      'parcel_provider_pacer_wait_seconds',
      'parcel_quota_reads_total',
    ],
  },
);
