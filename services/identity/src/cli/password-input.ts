import { createInterface } from 'node:readline';
import { Writable, type Readable } from 'node:stream';
import { PASSWORD_ENV, type PasswordSource } from './admin-commands.js';

/**
 * The first line of a stream, without its line ending (`\n`, `\r\n`); the whole stream when it
 * has no line ending; '' when it is empty. Stops reading after that line.
 */
export async function readFirstLine(input: Readable): Promise<string> {
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
  }
}

/** Thrown when the prompt is abandoned (Ctrl-C, Ctrl-D): the process exits 2 with this message. */
export class PromptAbandoned extends Error {}

/**
 * Asks on a terminal without echoing what is typed. The prompt goes to `output` (stderr, so
 * stdout stays the JSON result); a newline follows the answer.
 */
export function promptHidden(
  question: string,
  input: Readable = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Promise<string> {
  let muted = false;
  // Everything readline echoes passes through here; once the prompt is out, nothing does.
  const sink = new Writable({
    write(chunk, encoding, done) {
      if (!muted) output.write(chunk, encoding);
      done();
    },
  });
  const rl = createInterface({ input, output: sink, terminal: true });
  return new Promise((resolve, reject) => {
    let answered = false;
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      output.write('\n');
      if (!answered) reject(new PromptAbandoned('no password given at the prompt'));
    });
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
    muted = true;
  });
}

/** create-user's password, from the source parseCommandLine chose. */
export async function readPassword(
  source: PasswordSource,
  values: { password?: unknown },
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  switch (source) {
    case 'option':
      return String(values.password);
    case 'env':
      return env[PASSWORD_ENV] ?? '';
    case 'stdin':
      return readFirstLine(process.stdin);
    case 'prompt':
      return promptHidden('Password: ');
  }
}
