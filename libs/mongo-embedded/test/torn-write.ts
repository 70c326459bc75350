import fs from 'node:fs';
import { vi } from 'vitest';

/**
 * Makes the next `fs.writeSync` of this process fail part-way, as a full or failing disk does:
 * half of its bytes reach the file, then it throws with `code`. Returns the spy (restore it).
 */
export function tearNextWrite(code: 'ENOSPC' | 'EIO') {
  const message = code === 'ENOSPC' ? 'no space left on device' : 'i/o error';
  return vi.spyOn(fs, 'writeSync').mockImplementationOnce(((
    fd: number,
    buffer: NodeJS.ArrayBufferView,
    offset = 0,
    length = 0,
  ) => {
    fs.writeSync(fd, buffer, offset, length >> 1);
    throw Object.assign(new Error(`${code}: ${message}, write`), { code });
  }) as unknown as typeof fs.writeSync);
}
