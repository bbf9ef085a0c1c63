import { describe, expect, it } from 'vitest';
import { currencyExponent, formatMoney, majorUnitsText, moneyFormat, toMajorUnits, toMinorUnits } from './money.ts';

const intl = (c: string) => new Intl.NumberFormat('en', { style: 'currency', currency: c }).resolvedOptions().maximumFractionDigits;

describe('money in minor units', () => {
  it('knows each currency’s ISO 4217 exponent', () => {
    expect([currencyExponent('USD'), currencyExponent('EUR'), currencyExponent('CNY')]).toEqual([2, 2, 2]);
    expect([currencyExponent('JPY'), currencyExponent('KRW'), currencyExponent('ISK'), currencyExponent('CLP')]).toEqual([0, 0, 0, 0]);
    expect([currencyExponent('KWD'), currencyExponent('BHD'), currencyExponent('IQD')]).toEqual([3, 3, 3]);
    expect(currencyExponent('jpy')).toBe(0);
  });

  it('agrees with Intl wherever CLDR follows ISO 4217', () => {
    // CLDR writes these without decimals although ISO 4217 gives them 2 (IQD 3): the table's exponent stands.
    const cldrWithoutDecimals = [
      'AFN',
      'ALL',
      'COP',
      'HUF',
      'IDR',
      'IQD',
      'IRR',
      'KPW',
      'LAK',
      'LBP',
      'MGA',
      'MMK',
      'PKR',
      'RSD',
      'SLL',
      'SOS',
      'SYP',
      'TWD',
      'YER',
    ];
    const differ = Intl.supportedValuesOf('currency').filter((c) => intl(c) !== currencyExponent(c));
    expect(differ.filter((c) => !cldrWithoutDecimals.includes(c))).toEqual([]);
    for (const c of differ) expect(intl(c)).toBe(0);
    expect(intl('JPY')).toBe(currencyExponent('JPY'));
    expect(intl('KWD')).toBe(currencyExponent('KWD'));
  });

  it('turns minor units into amounts and back, in JPY without decimals', () => {
    expect(toMajorUnits(199, 'USD')).toBe(1.99);
    expect(toMajorUnits(120, 'JPY')).toBe(120);
    expect(toMajorUnits(1250, 'KWD')).toBe(1.25);
    expect(majorUnitsText(199, 'USD')).toBe('1.99');
    expect(majorUnitsText(120, 'JPY')).toBe('120');
    expect(majorUnitsText(1250, 'KWD')).toBe('1.250');
    expect(toMinorUnits(1.99, 'USD')).toBe(199);
    expect(toMinorUnits('1.99', 'USD')).toBe(199);
    expect(toMinorUnits(120, 'JPY')).toBe(120);
    expect(toMinorUnits('120', 'JPY')).toBe(120);
    expect(toMinorUnits('1.250', 'KWD')).toBe(1250);
  });

  it('refuses amounts that are not numbers or carry more decimals than the currency', () => {
    expect(toMinorUnits(undefined, 'USD')).toBeNull();
    expect(toMinorUnits('', 'USD')).toBeNull();
    expect(toMinorUnits('1,99', 'USD')).toBeNull();
    expect(toMinorUnits('0x10', 'USD')).toBeNull();
    expect(toMinorUnits(Number.NaN, 'USD')).toBeNull();
    expect(toMinorUnits(1.2, 'JPY')).toBeNull();
    expect(toMinorUnits('1.999', 'USD')).toBeNull();
  });
});

describe('formatMoney', () => {
  it('writes minor units with the currency’s ISO 4217 decimals, in both locales', () => {
    const cases: [number, string, string, string][] = [
      [199, 'USD', '$1.99', 'US$1.99'],
      [120, 'JPY', '¥120', 'JP¥120'],
      [1250, 'KWD', 'KWD\u00a01.250', 'KWD\u00a01.250'],
      // Intl alone writes Iraqi dinars without decimals; ISO 4217 gives them 3, as orders keep them.
      [1250, 'IQD', 'IQD\u00a01.250', 'IQD\u00a01.250'],
      [1, 'IQD', 'IQD\u00a00.001', 'IQD\u00a00.001'],
      [1999, 'CNY', 'CN¥19.99', '¥19.99'],
      [250, 'EUR', '€2.50', '€2.50'],
      [12345, 'CLF', 'CLF\u00a01.2345', 'CLF\u00a01.2345'],
    ];
    for (const [minor, currency, en, zh] of cases) {
      expect(formatMoney(minor, currency, 'en'), `${minor} ${currency} en`).toBe(en);
      expect(formatMoney(minor, currency, 'zh-CN'), `${minor} ${currency} zh-CN`).toBe(zh);
    }
  });

  it('formats major-unit amounts with the same decimals (charts keep major units)', () => {
    expect(moneyFormat('IQD', 'en').format(1.25)).toBe('IQD\u00a01.250');
    expect(moneyFormat('JPY', 'zh-CN').format(120)).toBe('JP¥120');
  });
});
