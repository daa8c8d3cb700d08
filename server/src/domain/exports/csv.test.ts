import { parse } from 'csv-parse/sync';
import { BOM, csvRecords, inert } from './csv';

describe('inert', () => {
  it.each(['=1+2', '+1', '-1+2', '@SUM(A1)', '\tcmd', '\rcmd', '=HYPERLINK("http://x")'])(
    'prefixes %j with an apostrophe',
    (cell) => {
      expect(inert(cell)).toBe(`'${cell}`);
    },
  );

  it.each(['12.5', '-12.5', '0', '-3', 'cust-1', 'a=b', ''])('leaves %j as it is', (cell) => {
    expect(inert(cell)).toBe(cell);
  });

  it('writes null as an empty cell', () => {
    expect(inert(null)).toBe('');
  });
});

describe('csvRecords', () => {
  it('quotes as RFC 4180 says and ends every record with CRLF', () => {
    const text = csvRecords([
      ['a,b', 'say "hi"', 'two\nlines', 'plain'],
      ['é', null, '=1', '-0.5'],
    ]);
    expect(text).toBe('"a,b","say ""hi""","two\nlines",plain\r\né,,\'=1,-0.5\r\n');
    expect(parse(text)).toEqual([
      ['a,b', 'say "hi"', 'two\nlines', 'plain'],
      ['é', '', "'=1", '-0.5'],
    ]);
  });

  it('writes nothing for no records', () => {
    expect(csvRecords([])).toBe('');
  });

  it('has the byte-order mark Excel looks for', () => {
    expect(Buffer.from(BOM, 'utf8')).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});
