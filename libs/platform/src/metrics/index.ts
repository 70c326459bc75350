export {
  createMetrics,
  EVENT_LOOP_SAMPLE_MS,
  startMetricsServer,
  type Metrics,
  type MetricsServerHandle,
} from './metrics.js';
