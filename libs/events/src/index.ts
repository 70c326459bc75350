export * from './activity.js';
