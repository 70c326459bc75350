export { GroupCommitQueue } from './group-commit-queue.js';
