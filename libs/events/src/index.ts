export * from './activity.js';
export * from './identity.js';
