import { describe, expect, it } from 'vitest';
import { formatAcquisition } from './acquisition.repository.ts';
import { AdvertisingIdsService } from './advertising-ids.service.ts';
import type { ConversionEvent } from '#server/adapters/conversions/conversion-sender.ts';
import { ConversionsService } from './conversions.service.ts';

/* Amounts leave the server in each currency's own units (common/money.ts): yen have no decimals. */
describe('amounts in reports and conversions', () => {
  it('sends a purchase in yen as yen, and one in dollars as dollars', () => {
    const sent: ConversionEvent[] = [];
    const conversions = new ConversionsService({ send: (event) => sent.push(event) }, new AdvertisingIdsService('amounts-test-secret-of-32-characters!'));
    const client = { address: '203.0.113.9', userAgent: 'Mozilla/5.0', adConsent: true, campaign: { source: 'facebook' } };
    conversions.purchase(7, { id: 'ord_yen', amount: 120, currency: 'JPY' }, client);
    conversions.purchase(7, { id: 'ord_usd', amount: 199, currency: 'USD' }, client);
    conversions.purchase(7, { id: 'ord_kwd', amount: 1250, currency: 'KWD' }, client);
    expect(sent.map((e) => [e.custom?.value, e.custom?.currency])).toEqual([
      [120, 'JPY'],
      [1.99, 'USD'],
      [1.25, 'KWD'],
    ]);
  });

  it('writes the acquisition report’s revenue with each currency’s decimals', () => {
    const table = formatAcquisition([
      { source: 'facebook', medium: 'cpc', campaign: 'spring', signUps: 3, members: 2, paidOrders: 3, revenue: { USD: 199, JPY: 120, KWD: 1250 } },
    ]);
    expect(table.split('\n')[1]).toContain('1.99 USD, 120 JPY, 1.250 KWD');
  });
});
