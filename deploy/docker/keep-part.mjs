// Image build step: keeps one part of the system (APP: a folder under services/, or "gateway") and
// the workspace packages its package.json dependencies name, transitively (plus Nx implicit
// dependencies: the gateway serves the web app's build). Every other workspace folder is deleted,
// kept ones lose their devDependencies, and the root package.json its own dependency lists (each
// package declares what its runtime code imports), so `npm prune --omit=dev` afterwards leaves only
// APP's production dependencies: no other service, no tool, no development-only library.
// Usage: node deploy/docker/keep-part.mjs <APP>   (from the repository root)
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const app = process.argv[2];
const appDir = app === 'gateway' ? 'gateway' : `services/${app}`;
if (!app || !existsSync(join(appDir, 'package.json'))) {
  console.error(`keep-part: no package at ${appDir}`);
  process.exit(1);
}
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

const root = readJson('package.json');
const dirs = root.workspaces.flatMap((pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(pattern.slice(0, -2), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
    : [pattern],
);
const byName = new Map();
for (const dir of dirs) {
  if (existsSync(join(dir, 'package.json')))
    byName.set(readJson(join(dir, 'package.json')).name, dir);
}

const keep = new Set();
const visit = (dir) => {
  if (keep.has(dir)) return;
  keep.add(dir);
  const pkg = readJson(join(dir, 'package.json'));
  const names = [...Object.keys(pkg.dependencies ?? {}), ...(pkg.nx?.implicitDependencies ?? [])];
  for (const name of names) if (byName.has(name)) visit(byName.get(name));
};
visit(appDir);

for (const dir of byName.values()) {
  if (!keep.has(dir)) {
    rmSync(dir, { recursive: true, force: true });
    continue;
  }
  const pkg = readJson(join(dir, 'package.json'));
  delete pkg.devDependencies;
  writeJson(join(dir, 'package.json'), pkg);
}
for (const key of ['dependencies', 'devDependencies', 'optionalDependencies', 'overrides']) {
  delete root[key];
}
writeJson('package.json', root);
console.log(`keep-part ${app}: ${[...keep].sort().join(' ')}`);
