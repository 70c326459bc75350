import { describe, expect, it } from 'vitest';
import { boundedLabel, isPlausibleNumber, relativeUrl } from './shipment-input.js';

describe('shipment input', () => {
  it('keeps trackable_url relative', () => {
    expect(relativeUrl('/sales-orders/1')).toBe('/sales-orders/1');
    expect(relativeUrl('sales-orders/1')).toBe('/sales-orders/1');
    expect(relativeUrl('https://app.example.com/rmas/9?tab=2#x')).toBe('/rmas/9?tab=2#x');
    expect(relativeUrl('//evil.example/rmas/9')).toBe('/rmas/9');
    expect(relativeUrl('javascript:alert(1)')).toBe('');
    expect(relativeUrl('data:text/html,x')).toBe('');
    expect(relativeUrl(`/${'a'.repeat(5000)}`)).toHaveLength(2048);
  });

  it('bounds labels and checks numbers', () => {
    expect(boundedLabel(` ${'x'.repeat(300)} `)).toHaveLength(255);
    expect(isPlausibleNumber('1Z999AA10123456784')).toBe(true);
    expect(isPlausibleNumber('JJD-0123')).toBe(true);
    expect(isPlausibleNumber('A'.repeat(101))).toBe(false);
    expect(isPlausibleNumber('has space')).toBe(false);
  });
});
