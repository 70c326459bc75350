import { fileURLToPath } from 'node:url';
import { launch } from './launcher.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
await launch({ repoRoot, env: process.env });
