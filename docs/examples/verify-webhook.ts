// What a game's own backend does with the portal's webhooks (docs/sdk/webhooks.md): check the
// signature over the exact bytes received, refuse old timestamps, and handle each event id once.
// Runnable (Node 24, nothing to install): a receiver on 127.0.0.1 that prints each event:
//   PLAYPORT_WEBHOOK_SECRET=whsec_… node docs/examples/verify-webhook.ts 8787
// then set http://127.0.0.1:8787/playport/webhook as the game's webhook URL (on a development portal).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/** How far the signature's time may be from this server's clock, either way. */
const TOLERANCE_SECONDS = 300;

/**
 * Whether `Playport-Signature: t={unix seconds},v1={hex},…` is the portal's, made with the webhook
 * secret over "{t}.{body}", at most 5 minutes from now. The header carries one `v1` per secret that
 * signs: two during the day after the secret is rotated (the new one first), so accept it when any
 * `v1` matches.
 */
export function verifyWebhook(secret: string, header: string | undefined, rawBody: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const fields = (header ?? '').split(',').map((part) => part.trim().split('=', 2) as [string, string]);
  const timestamp = fields.find(([name]) => name === 't')?.[1] ?? '';
  const given = fields.filter(([name, value]) => name === 'v1' && /^[0-9a-f]{64}$/.test(value ?? '')).map(([, value]) => value);
  if (!/^\d+$/.test(timestamp) || given.length === 0) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  return given.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected));
}

/** A receiver: verifies each webhook, handles each event id once, answers 200 (or 400 for a bad signature). */
export function webhookReceiver(secret: string, handle: (event: { id: string; type: string; data: unknown }) => void): Server {
  const seen = new Set<string>();
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = request.headers['playport-signature'];
      if (!verifyWebhook(secret, typeof signature === 'string' ? signature : undefined, body)) {
        response.writeHead(400).end('bad signature');
        return;
      }
      const event = JSON.parse(body) as { id: string; type: string; data: unknown };
      // A retry of an event already handled is answered 200 again, and not handled twice.
      if (!seen.has(event.id)) {
        seen.add(event.id);
        handle(event);
      }
      response.writeHead(200).end('ok');
    });
  });
}

if (import.meta.main) {
  const port = Number(process.argv[2] ?? 8787);
  const secret = process.env.PLAYPORT_WEBHOOK_SECRET;
  if (!secret) {
    console.error('Set PLAYPORT_WEBHOOK_SECRET to the game’s webhook secret (whsec_…).');
    process.exit(1);
  }
  webhookReceiver(secret, (event) => console.info(event.type, event.id, JSON.stringify(event.data))).listen(port, '127.0.0.1', () =>
    console.info(`Listening on http://127.0.0.1:${port}/playport/webhook`),
  );
}
