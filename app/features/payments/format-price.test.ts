import { describe, expect, it } from 'vitest';
import { formatPrice } from './format-price.ts';

describe('formatPrice', () => {
  it('reads minor units with the currency’s ISO 4217 exponent', () => {
    expect(formatPrice(199, 'USD', 'en')).toBe('$1.99');
    expect(formatPrice(120, 'JPY', 'en')).toBe('¥120');
    expect(formatPrice(1250, 'KWD', 'en')).toBe('KWD\u00a01.250');
    // Intl writes Iraqi dinars without decimals, yet ISO 4217 gives them 3: 125,000 fils are 125 dinars.
    expect(formatPrice(125_000, 'IQD', 'en')).toBe('IQD\u00a0125');
  });
});
