export { createProviderSim, startProviderSim } from './server.js';
export type {
  ProviderSimApp,
  ProviderSimControls,
  ProviderSimHandle,
  ProviderSimOptions,
} from './server.js';
export { ProviderSim, SimError, TRACK_ENDPOINTS } from './sim.js';
export type { ChangeResult, PushRequest, SimOptions, TrackEndpoint, TrackingView } from './sim.js';
export { SimState } from './domain/state.js';
export type { AuthStyle, KeyOptions, WebhookDelivery } from './domain/state.js';
export type { FaultSpec } from './domain/faults.js';
export type { QuotaSnapshot } from './domain/quota.js';
export type { TrackInfo } from './domain/track-info.js';
export type { TrackInfoItem } from './domain/track-ops.js';
export type { MainStatus, KeyStage, TrackEvent } from './domain/types.js';
export { MAIN_STATUSES, KEY_STAGES } from './domain/types.js';
export { CARRIERS, carrierName, detectCarrier, findCarrier } from './domain/carriers.js';
export type { Carrier } from './domain/carriers.js';
export { SCRIPTS } from './domain/progression.js';
export { ErrorCode, errorMessage } from './errors.js';
export { signBody } from './webhooks/pusher.js';
export type { PushResult, WebhookEvent } from './webhooks/pusher.js';
export { API_PREFIX } from './routes/track-api.js';
