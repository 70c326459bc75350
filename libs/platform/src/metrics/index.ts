export {
  createMetrics,
  startMetricsServer,
  type Metrics,
  type MetricsServerHandle,
} from './metrics.js';
