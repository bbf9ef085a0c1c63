import { describe, expect, it } from 'vitest';
import { pixelCall, pixelScript } from './pixel.ts';

const ids = { externalId: 'e'.repeat(64), registrationEventId: 'r'.repeat(64), purchase: { eventId: 'p'.repeat(64), orderId: 'o'.repeat(64) } };

describe('the pixel', () => {
  it('loads its script in the page’s language', () => {
    expect(pixelScript('en')).toBe('https://connect.facebook.net/en_US/fbevents.js');
    expect(pixelScript('zh-CN')).toBe('https://connect.facebook.net/zh_CN/fbevents.js');
  });

  it('sends a registration and a purchase only with the server’s keyed ids, never the ids themselves', () => {
    expect(pixelCall({ event: 'registration', data: { uid: 42 } }, ids)).toEqual(['track', 'CompleteRegistration', {}, { eventID: ids.registrationEventId }]);
    const purchase = { event: 'purchase' as const, data: { amount: 1.99, currency: 'USD', order_id: 'ord_abcdefgh12345678' } };
    expect(pixelCall(purchase, ids)).toEqual([
      'track',
      'Purchase',
      { value: 1.99, currency: 'USD', order_id: ids.purchase.orderId },
      { eventID: ids.purchase.eventId },
    ]);
    expect(JSON.stringify(pixelCall(purchase, ids))).not.toContain('ord_abcdefgh12345678');
    // Without the server's answer nothing is sent rather than a readable id.
    expect(pixelCall({ event: 'registration', data: { uid: 42 } }, null)).toBeNull();
    expect(pixelCall(purchase, null)).toBeNull();
    expect(pixelCall(purchase, { ...ids, purchase: null })).toBeNull();
    expect(pixelCall({ event: 'login', data: { uid: 42 } }, ids)).toBeNull();
    expect(pixelCall({ event: 'pwa-install', data: {} }, null)).toEqual(['trackCustom', 'PWAInstall', {}]);
  });
});
