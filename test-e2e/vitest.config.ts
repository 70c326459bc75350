import { projectTestConfig } from '../vitest.shared.js';

// Whole-system tests boot every service; give them room on a 2-core machine.
export default projectTestConfig({ testTimeout: 60_000 });
