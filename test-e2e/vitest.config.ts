import { projectTestConfig } from '../vitest.shared.js';

// Whole-system tests boot and stop every service (seven processes' worth of connections,
// workers and drains); give set-up and tear-down room on a busy 2-core machine.
export default projectTestConfig({ testTimeout: 60_000, hookTimeout: 180_000 });
