// A studio's webhook endpoint for the soak run: verifies each delivery's signature (as
// docs/examples/verify-webhook.ts shows a game's backend doing) and records every one, redeliveries
// included, so the run can tell how many times each paid order arrived.
import { createServer } from 'node:http';
import { verifyWebhook } from '../../../docs/examples/verify-webhook.ts';

export interface WebhookReceiver {
  url: string;
  /** The game's webhook secret, known once the studio set the URL. */
  secret: string;
  /** Deliveries of order.paid: event ids by order id, one entry per delivery. */
  paid: Map<string, string[]>;
  /** Deliveries refused for a bad signature. */
  badSignatures: number;
  deliveries: number;
  stop: () => Promise<void>;
}

export async function startWebhookReceiver(port: number): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/playport/webhook`,
    secret: '',
    paid: new Map(),
    badSignatures: 0,
    deliveries: 0,
    stop: async () => {},
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = request.headers['playport-signature'];
      if (!verifyWebhook(receiver.secret, typeof signature === 'string' ? signature : undefined, body)) {
        receiver.badSignatures++;
        response.writeHead(400).end('bad signature');
        return;
      }
      receiver.deliveries++;
      const event = JSON.parse(body) as { id: string; type: string; data: { order?: { id: string } } };
      if (event.type === 'order.paid' && event.data.order) {
        const events = receiver.paid.get(event.data.order.id) ?? [];
        events.push(event.id);
        receiver.paid.set(event.data.order.id, events);
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  receiver.stop = () => new Promise<void>((done) => server.close(() => done()));
  return receiver;
}
