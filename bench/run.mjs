// `npm run bench [-- --quick] [-- --only <row,…>]`: the whole table (bench/table/main.ts) in one
// run. Plain JavaScript so npm can start it without a loader; the table itself runs under tsx.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const main = fileURLToPath(new URL('./table/main.ts', import.meta.url));
const child = spawn(
  process.execPath,
  ['--conditions=development', '--import', 'tsx', main, ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: fileURLToPath(new URL('..', import.meta.url)) },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
