import type { Document } from 'bson';
import { isPlainDoc, ownField } from '../safety/unsafe-keys.js';

// `$`, `$[]` and `$[identifier]` are positional; any other `$`-prefixed part names a field.
const POSITIONAL = /^\$(\[[^\]]*\])?$/;

/** The first part of an update path that is a `$`-prefixed field name (mongoose's `'map.$*.x'`). */
export function dollarFieldIn(path: string): string | undefined {
  return path.split('.').find((part) => part.startsWith('$') && !POSITIONAL.test(part));
}

/**
 * `$unset` of paths holding a `$`-prefixed field name, done here: mingo reads any `.$` as an
 * array filter and refuses the name. MongoDB takes it as a field: removed when present, nothing
 * when absent. Returns the arguments left for mingo and whether this changed the document.
 */
export function unsetDollarFields(
  doc: Document,
  args: Document,
): { rest: Document; modified: boolean } {
  let rest: Document | undefined;
  let modified = false;
  for (const path of Object.keys(args)) {
    if (dollarFieldIn(path) === undefined) continue;
    rest ??= { ...args };
    delete rest[path];
    const parts = path.split('.');
    const last = parts.pop()!;
    let parent: unknown = doc;
    for (const part of parts) {
      if (Array.isArray(parent) && /^\d+$/.test(part)) parent = parent[Number(part)];
      else parent = isPlainDoc(parent) ? ownField(parent, part) : undefined;
    }
    if (isPlainDoc(parent) && Object.hasOwn(parent, last)) {
      delete parent[last];
      modified = true;
    }
  }
  return { rest: rest ?? args, modified };
}
