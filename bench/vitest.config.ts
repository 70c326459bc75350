import { defineConfig } from 'vitest/config';

// Only the benches' pure reporting logic is tested; the benches themselves are run by hand.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['*/**/*.spec.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/_prof/**'],
  },
});
