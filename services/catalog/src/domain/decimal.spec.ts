import { describe, expect, it } from 'vitest';
import { parseDecimal } from './decimal.js';

describe('parseDecimal', () => {
  it('keeps the text and counts exact 1/10,000 units', () => {
    expect(parseDecimal('19.99')).toEqual({ text: '19.99', units: 199_900 });
    expect(parseDecimal('0019.5')).toEqual({ text: '19.5', units: 195_000 });
    expect(parseDecimal('-0.0001')).toEqual({ text: '-0.0001', units: -1 });
    expect(parseDecimal('-0')).toEqual({ text: '0', units: 0 });
    expect(parseDecimal('99999999999.9999')).toEqual({
      text: '99999999999.9999',
      units: 999_999_999_999_999,
    });
  });

  it('orders like the amounts, where text order and floats would not', () => {
    const amounts = ['100', '9.5', '-3', '10.05', '0.1', '0.2'].map((text) => parseDecimal(text)!);
    const sorted = [...amounts].sort((a, b) => a.units - b.units).map((amount) => amount.text);
    expect(sorted).toEqual(['-3', '0.1', '0.2', '9.5', '10.05', '100']);
    expect(parseDecimal('0.1')!.units + parseDecimal('0.2')!.units).toBe(
      parseDecimal('0.3')!.units,
    );
  });

  it.each(['', 'abc', '1.23456', '1e5', '1,000.00', '123456789012', '.5', '5.', 'NaN', '+1'])(
    'rejects %j',
    (text) => expect(parseDecimal(text)).toBeUndefined(),
  );
});
