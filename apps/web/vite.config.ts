import { defaultClientConditions, defineConfig } from 'vite';

// Served by the gateway under /app on each tenant's host (gateway/src/routes/web-app).
// Preact's automatic JSX runtime through the built-in transform: no framework plugin needed.
export default defineConfig({
  base: '/app/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // The rules the app shows (@inventory/rules, @inventory/access, @inventory/events/browser) are
  // bundled from their TypeScript sources, as tsx and vitest run them: no library build first.
  resolve: { conditions: ['development', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts or data: URLs anywhere: the gateway's CSP forbids them.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
