export { eventually, waitFor, type EventuallyOptions } from './eventually.js';
