import { describe, expect, it } from 'vitest';
import { csvField, csvText } from './csv.ts';

describe('CSV fields', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField(12)).toBe('12');
    expect(csvField('Star Jumper')).toBe('Star Jumper');
  });

  it('neutralises text a spreadsheet would run as a formula with a leading single quote', () => {
    expect(csvField('=HYPERLINK("http://x.example","click")')).toBe('"\'=HYPERLINK(""http://x.example"",""click"")"');
    expect(csvField('+1+cmd|/C calc!A0')).toBe("'+1+cmd|/C calc!A0");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)");
    expect(csvField('\t=1+1')).toBe("'\t=1+1");
    expect(csvField('\r=1+1')).toBe('"\'\r=1+1"');
    // Numbers stay numbers, written as numbers or as decimal text.
    expect(csvField(-5)).toBe('-5');
    expect(csvField('-1.250')).toBe('-1.250');
    expect(csvField('1.99')).toBe('1.99');
    // Only the start counts.
    expect(csvField('a=b')).toBe('a=b');
  });

  it('joins rows with CRLF and ends with one', () => {
    expect(
      csvText([
        ['date', 'game'],
        ['2026-11-28', '=cmd'],
      ]),
    ).toBe("date,game\r\n2026-11-28,'=cmd\r\n");
  });
});
