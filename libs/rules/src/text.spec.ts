import { describe, expect, it } from 'vitest';
import { controlCharactersMessage, hasControlCharacters } from './text.js';

describe('control characters in text fields', () => {
  it('refuses NUL, the other C0 controls, DEL and the C1 controls, wherever they are', () => {
    const controls = [
      ...Array.from({ length: 0x20 }, (_, code) => code).filter((code) => code !== 0x09),
      0x7f,
      ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i),
    ];
    for (const code of controls) {
      const char = String.fromCharCode(code);
      expect(hasControlCharacters(`a${char}b`), `U+${code.toString(16)}`).toBe(true);
      expect(hasControlCharacters(char), `U+${code.toString(16)}`).toBe(true);
    }
  });

  it('keeps tabs and every printable character, and line breaks where a field may span lines', () => {
    expect(hasControlCharacters('Deploy bot\t(ci) – éü 日本 🚚')).toBe(false);
    expect(hasControlCharacters('first line\nsecond\r\nthird')).toBe(true);
    expect(hasControlCharacters('first line\nsecond\r\nthird', { lineBreaks: true })).toBe(false);
    expect(hasControlCharacters('a\u0000b', { lineBreaks: true })).toBe(true);
    expect(controlCharactersMessage('description')).toBe(
      'The description field must not contain control characters.',
    );
  });
});
