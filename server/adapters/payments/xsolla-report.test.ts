import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvRecords, parseXsollaReport, reportAmount } from './xsolla-report.ts';

const SAMPLE = resolve(import.meta.dirname, '../../features/earnings/testdata/xsolla-transactions-sample.csv');

describe("Xsolla's transaction report", () => {
  it('reads the sample: a byte-order mark, quoted separators and quotes, a partial and a whole refund, JPY, and no totals row', () => {
    const report = parseXsollaReport(readFileSync(SAMPLE, 'utf8'));
    expect(report.problems).toEqual([]);
    expect(
      report.transactions.map(({ transactionId, externalId, status, paid, currency, amount, fee, refunded, day }) => ({
        transactionId,
        externalId,
        status,
        paid,
        currency,
        amount,
        fee,
        refunded,
        day,
      })),
    ).toEqual([
      {
        transactionId: '880001',
        externalId: 'ord_sample0001',
        status: 'done',
        paid: true,
        currency: 'USD',
        amount: 199,
        fee: 9,
        refunded: 0,
        day: '2026-11-02',
      },
      {
        transactionId: '880002',
        externalId: 'ord_sample0002',
        status: 'refunded',
        paid: true,
        currency: 'USD',
        amount: 999,
        fee: 49,
        refunded: 999,
        day: '2026-11-02',
      },
      {
        transactionId: '880003',
        externalId: 'ord_sample0003',
        status: 'done',
        paid: true,
        currency: 'JPY',
        amount: 120,
        fee: 6,
        refunded: 0,
        day: '2026-11-03',
      },
      {
        transactionId: '880004',
        externalId: 'ord_sample0004',
        status: 'done',
        paid: true,
        currency: 'USD',
        amount: 499,
        fee: 29,
        refunded: 100,
        day: '2026-11-03',
      },
    ]);
    expect(report.transactions[0]!.line).toBe(2);
  });

  it('splits records as RFC 4180 says: quoted separators, doubled quotes, line breaks in quotes, CRLF, blank lines', () => {
    expect(csvRecords('a,b,c\r\n"x, y","say ""hi""","two\nlines"\r\n\r\nlast,,\n')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['x, y', 'say "hi"', 'two\nlines'] },
      { line: 5, fields: ['last', '', ''] },
    ]);
  });

  it('reads semicolon-separated exports with decimal commas, header names in words, and day-first dates', () => {
    const text = [
      'Transaction ID;External ID;Status;Payment date;Payment amount;Payment currency;Xsolla fee;VAT;Refund amount',
      '1001;ord_a;done;03.11.2026 10:00;"1 234,56";eur;12,30;1,00;',
      '1002;ord_b;canceled;04.11.2026;0,99;EUR;0,05;0;',
      '1003;ord_c;error;04.11.2026;0,99;EUR;;;',
    ].join('\n');
    const report = parseXsollaReport(text);
    expect(report.problems).toEqual([]);
    expect(report.transactions).toMatchObject([
      { transactionId: '1001', externalId: 'ord_a', currency: 'EUR', amount: 123_456, fee: 1330, refunded: 0, day: '2026-11-03', paid: true },
      { transactionId: '1002', currency: 'EUR', amount: 99, fee: 5, refunded: 99, day: '2026-11-04', paid: true },
      { transactionId: '1003', paid: false },
    ]);
  });

  it('reads amounts with a dot or a comma, thousands separators, and refuses more decimals than the currency has', () => {
    expect(reportAmount('1.99', 'USD')).toBe(199);
    expect(reportAmount('1,99', 'USD')).toBe(199);
    expect(reportAmount('1,234.56', 'USD')).toBe(123_456);
    expect(reportAmount('1.234,56', 'USD')).toBe(123_456);
    expect(reportAmount('120', 'JPY')).toBe(120);
    expect(reportAmount('', 'USD')).toBe(0);
    expect(reportAmount('1.999', 'USD')).toBeNull();
    expect(reportAmount('1.5', 'JPY')).toBeNull();
    expect(reportAmount('ten', 'USD')).toBeNull();
  });

  it('names unreadable rows and a header without the columns it needs', () => {
    const report = parseXsollaReport(
      'transaction.id,transaction.external_id,payment_details.payment.amount,payment_details.payment.currency\n7,ord_x,abc,USD\n8,ord_y,1.00,US\n9,ord_z,1.00,USD\n',
    );
    expect(report.problems).toEqual([
      { line: 2, transactionId: '7', externalId: 'ord_x', message: 'unreadable amount' },
      { line: 3, transactionId: '8', externalId: 'ord_y', message: 'unreadable currency "US"' },
    ]);
    expect(report.transactions).toMatchObject([{ line: 4, transactionId: '9', status: 'done', amount: 100 }]);
    expect(parseXsollaReport('id;something\n1;2').problems).toEqual([
      { line: 1, transactionId: null, externalId: null, message: 'the header has no column for amount, currency' },
    ]);
    expect(parseXsollaReport('').problems).toHaveLength(1);
  });
});
