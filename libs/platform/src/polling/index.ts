export { PollWait } from './poll-wait.js';
