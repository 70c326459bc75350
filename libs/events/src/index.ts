export * from './activity.js';
export * from './identity.js';
export * from './alert.js';
export * from './domain-events.js';
export * from './webhook-catalog.js';
export * from './catalog.js';
export * from './shipment.js';
