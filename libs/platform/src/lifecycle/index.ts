export { exitOnSignals, stopAll, type Stoppable } from './shutdown.js';
