import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedConversions, startConversionsApiStandIn } from '#server/testing/conversions-api-stand-in.ts';
import type { ConversionEvent } from './conversion-sender.ts';
import { MetaConversionsApi } from './meta-conversions-api.ts';

/* The Conversions API sender against its loopback stand-in: one event per call, the token in the body; failures only logged. */

const purchase: ConversionEvent = {
  name: 'Purchase',
  id: 'hashed-event-id',
  externalId: 'hashed-external-id',
  client: { address: '203.0.113.9', userAgent: 'Mozilla/5.0' },
  custom: { value: 1.99, currency: 'USD', order_id: 'hashed-order-id' },
};

async function until<T>(read: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error('nothing arrived');
}

describe('Meta Conversions API', () => {
  let meta: Awaited<ReturnType<typeof startConversionsApiStandIn>>;
  beforeAll(async () => {
    meta = await startConversionsApiStandIn();
  });
  afterAll(() => meta?.stop());

  it('posts the event to the pixel’s events with the access token, the ids as hashed and the client as it is', async () => {
    const api = new MetaConversionsApi({ pixelId: '123456789012', url: meta.url, token: 'capi-token', publicOrigin: 'https://play.example' });
    api.send(purchase);
    const received: ReceivedConversions = await until(() => meta.received.at(-1));
    expect(received.path).toBe('/v21.0/123456789012/events');
    expect(received.body.access_token).toBe('capi-token');
    expect(received.body.data).toEqual([
      expect.objectContaining({
        event_name: 'Purchase',
        event_id: 'hashed-event-id',
        action_source: 'website',
        event_source_url: 'https://play.example',
        user_data: { external_id: ['hashed-external-id'], client_ip_address: '203.0.113.9', client_user_agent: 'Mozilla/5.0' },
        custom_data: { value: 1.99, currency: 'USD', order_id: 'hashed-order-id' },
      }),
    ]);
  });

  it('logs a refused event and an unreachable API instead of throwing', async () => {
    const warnings: string[] = [];
    for (const url of [meta.url.replace('/v21.0', '/nowhere'), 'http://127.0.0.1:1/v21.0']) {
      const api = new MetaConversionsApi({ pixelId: '123456789012', url, token: 'capi-token', publicOrigin: 'https://play.example' });
      api.log = { warn: ((_facts: unknown, message: string) => void warnings.push(message)) as MetaConversionsApi['log']['warn'] };
      expect(() => api.send(purchase)).not.toThrow();
    }
    await until(() => (warnings.length === 2 ? warnings : undefined));
    expect(warnings.toSorted()).toEqual(['conversions API refused an event', 'conversions API unreachable']);
  });
});
