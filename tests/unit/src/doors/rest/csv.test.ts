import { parse } from 'csv-parse/sync';
import { toCsv } from '../../../../../src/services/csv-export';

describe('toCsv', () => {
  it('writes RFC 4180 with CRLF, quoting what needs it, and reads back with a real parser', () => {
    const text = toCsv(['a', 'b', 'c'], [['x, "y"', 'line\nbreak', null], ['é ’', true, 0.1 + 0.2]]);
    expect(text).toBe('a,b,c\r\n"x, ""y""","line\nbreak",\r\né ’,true,0.30000000000000004\r\n');
    expect(parse(text)).toEqual([['a', 'b', 'c'], ['x, "y"', 'line\nbreak', ''], ['é ’', 'true', '0.30000000000000004']]);
  });

  it('neutralises text that begins with =, +, -, @, a tab or a carriage return, and never a number', () => {
    const cells = ['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'safe'];
    const [, row] = parse(toCsv(cells.map((_, i) => `c${i}`), [cells])) as string[][];
    expect(row).toEqual(["'=1+2", "'+1", "'-1", "'@SUM(A1)", "'\tx", "'\rx", 'safe']);
    const [, numbers] = parse(toCsv(['negative', 'tiny', 'integer'], [[-0.5, -1e-7, -3]])) as string[][];
    expect(numbers).toEqual(['-0.5', '-1e-7', '-3']);
  });
});
