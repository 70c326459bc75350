import { runMain } from '@inventory/platform';
import { bootstrap } from './bootstrap.js';

await runMain(() => bootstrap());
