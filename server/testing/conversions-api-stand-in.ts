import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Conversions API call as the stand-in received it: its path and JSON body (the token included). */
export interface ReceivedConversions {
  path: string;
  body: { access_token: string; data: Array<Record<string, unknown> & { event_name: string; event_id: string; user_data: { external_id: string[] } }> };
}

/**
 * A local stand-in for Meta's Graph API (decision 065) on loopback: it keeps every POST
 * {version}/{pixel id}/events and answers as Meta does; `GET /received` lists what it kept, for a
 * test in another process (the end-to-end run starts it with scripts/conversions-api-stand-in.ts).
 */
export async function startConversionsApiStandIn(port = 0): Promise<{ url: string; received: ReceivedConversions[]; stop(): Promise<void> }> {
  const received: ReceivedConversions[] = [];
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.method === 'GET' && request.url === '/received') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
        return;
      }
      if (request.method !== 'POST' || !/^\/v[\d.]+\/\d+\/events$/.test(request.url ?? '')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Unknown path', code: 100 } }));
        return;
      }
      try {
        received.push({ path: request.url ?? '', body: JSON.parse(raw) as ReceivedConversions['body'] });
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ events_received: 1, fbtrace_id: 'stand-in' }));
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Invalid JSON', code: 100 } }));
      }
    });
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`,
    received,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}
