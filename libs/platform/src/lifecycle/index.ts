export { exitOnSignals, stopAll, type Stoppable } from './shutdown.js';
export { EXIT_BAD_CONFIG, EXIT_FAILED_START, runMain, type RunningProcess } from './run-main.js';
