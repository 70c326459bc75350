import { projectTestConfig } from '../../vitest.shared.js';

// Pure helpers only; the pages are tested in Chromium (test-e2e/test/web-app).
export default projectTestConfig();
