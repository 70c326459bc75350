export { startSystem, type RunningSystem, type SystemOptions } from './system.js';
