export * from './activity.js';
export * from './identity.js';
export * from './alert.js';
export * from './shipment.js';
