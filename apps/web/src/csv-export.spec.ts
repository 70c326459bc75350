import { describe, expect, it } from 'vitest';
import { csvFileName, toCsv, type CsvColumn } from './csv-export.js';

interface Row {
  number: string;
  note: string | null;
  took: number;
}
const COLUMNS: CsvColumn<Row>[] = [
  { label: 'Tracking number', text: (row) => row.number },
  { label: 'Note', text: (row) => row.note },
  { label: 'Took', text: (row) => row.took },
];

describe('toCsv (RFC 4180, safe to open in a spreadsheet)', () => {
  it('writes a heading line and one CRLF line per row, empty for a missing value', () => {
    expect(toCsv(COLUMNS, [{ number: '1Z9', note: null, took: 12 }])).toBe(
      'Tracking number,Note,Took\r\n1Z9,,12',
    );
  });

  it('quotes commas, quotes and line breaks, doubling a quote', () => {
    const csv = toCsv(COLUMNS, [{ number: 'A,B', note: 'say "hi"\nthen go', took: 0 }]);
    expect(csv.split('\r\n')[1]).toBe('"A,B","say ""hi""\nthen go",0');
  });

  it('keeps a cell that looks like a formula as text', () => {
    const rows = ['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)'].map((number) => ({
      number,
      note: null,
      took: 1,
    }));
    const lines = toCsv(COLUMNS, rows).split('\r\n').slice(1);
    expect(lines).toEqual([
      '"\'=HYPERLINK(""x"")",,1',
      '"\'+1",,1',
      '"\'-2",,1',
      '"\'@SUM(A1)",,1',
    ]);
  });

  it('keeps a NUL byte and a number as they are', () => {
    expect(toCsv(COLUMNS, [{ number: 'a\u0000b', note: 'x', took: 3.5 }]).split('\r\n')[1]).toBe(
      'a\u0000b,x,3.5',
    );
  });
});

describe('csvFileName', () => {
  it('names the file after the list and the day', () => {
    expect(csvFileName('Webhook log', new Date('2026-11-29T23:59:00Z'))).toBe(
      'webhook-log-2026-11-29.csv',
    );
  });
});
