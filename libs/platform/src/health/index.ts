export {
  StallWatch,
  unlessStalled,
  type StallHealth,
  type StallWatchOptions,
} from './stall-watch.js';
