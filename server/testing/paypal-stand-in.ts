import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { freePort } from './free-port.ts';

/*
 * A stand-in for PayPal's Payouts API v1 on loopback (server/adapters/payouts/paypal-payouts.ts
 * cites the reference): the client-credentials token, a batch created once per sender_batch_id
 * (a repeated id is refused as PayPal refuses it, with a link to the first batch), and the batch's
 * status. Tests set an item's transaction_status (FAILED, RETURNED…) and can make the next create
 * fail with a 5xx after the batch was made, as a lost answer would.
 */

export interface StandInBatch {
  payoutBatchId: string;
  senderBatchId: string;
  item: { recipient_type: string; amount: { value: string; currency: string }; receiver: string; sender_item_id: string };
  transactionStatus: string;
  error: string | null;
}

export interface PayPalStandIn {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every batch made, in order. */
  batches: StandInBatch[];
  /** How many create calls were refused as repeats of a sender_batch_id. */
  duplicatesRefused(): number;
  /** Sets the item's status of the batch made for `senderBatchId`. */
  setStatus(senderBatchId: string, status: string, error?: string): void;
  /** The next create makes its batch and then answers 500, as a connection lost before the answer would. */
  loseNextAnswer(): void;
  close(): Promise<void>;
}

export async function startPayPalStandIn(options: { clientId?: string; clientSecret?: string } = {}): Promise<PayPalStandIn> {
  const clientId = options.clientId ?? 'paypal-test-client';
  const clientSecret = options.clientSecret ?? 'paypal-test-secret';
  const tokens = new Set<string>();
  const batches: StandInBatch[] = [];
  let duplicates = 0;
  let loseNext = false;
  let url = '';

  const batchView = (batch: StandInBatch) => ({
    batch_header: {
      payout_batch_id: batch.payoutBatchId,
      batch_status: 'SUCCESS',
      sender_batch_header: { sender_batch_id: batch.senderBatchId },
      amount: batch.item.amount,
    },
    items: [
      {
        payout_item_id: `I${batch.payoutBatchId}`,
        transaction_status: batch.transactionStatus,
        payout_batch_id: batch.payoutBatchId,
        payout_item: batch.item,
        ...(batch.error ? { errors: { name: batch.error, message: batch.error } } : {}),
      },
    ],
    links: [{ href: `${url}/v1/payments/payouts/${batch.payoutBatchId}`, rel: 'self', method: 'GET' }],
  });

  const server = createServer((req, res) => {
    let raw = '';
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/oauth2/token') {
        if (req.headers.authorization !== `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`)
          return send(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
        if (req.headers['content-type'] !== 'application/x-www-form-urlencoded' || new URLSearchParams(raw).get('grant_type') !== 'client_credentials')
          return send(400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
        const token = `A21${randomBytes(16).toString('hex')}`;
        tokens.add(token);
        return send(200, { scope: 'https://uri.paypal.com/payments/payouts', access_token: token, token_type: 'Bearer', expires_in: 32400 });
      }
      const bearer = req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : '';
      if (!tokens.has(bearer))
        return send(401, { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials.' });
      if (req.method === 'POST' && req.url === '/v1/payments/payouts') {
        let body: { sender_batch_header?: { sender_batch_id?: unknown }; items?: StandInBatch['item'][] };
        try {
          body = JSON.parse(raw) as typeof body;
        } catch {
          return send(400, { name: 'MALFORMED_REQUEST', message: 'Invalid JSON' });
        }
        const senderBatchId = body.sender_batch_header?.sender_batch_id;
        const item = body.items?.[0];
        if (
          typeof senderBatchId !== 'string' ||
          !item ||
          item.recipient_type !== 'EMAIL' ||
          !/^[^@\s]+@[^@\s]+$/.test(item.receiver ?? '') ||
          !/^\d+(\.\d+)?$/.test(item.amount?.value ?? '') ||
          !/^[A-Z]{3}$/.test(item.amount?.currency ?? '')
        )
          return send(400, { name: 'VALIDATION_ERROR', message: 'Invalid request - see details.', details: [{ field: 'items', issue: 'invalid item' }] });
        const earlier = batches.find((b) => b.senderBatchId === senderBatchId);
        if (earlier) {
          duplicates += 1;
          return send(400, {
            name: 'USER_BUSINESS_ERROR',
            message: 'User business error.',
            debug_id: randomBytes(6).toString('hex'),
            details: [{ field: 'SENDER_BATCH_ID', location: 'body', issue: `Batch with given sender_batch_id already exists: ${senderBatchId}` }],
            links: [{ href: `${url}/v1/payments/payouts/${earlier.payoutBatchId}`, rel: 'self', method: 'GET', encType: 'application/json' }],
          });
        }
        const batch: StandInBatch = {
          payoutBatchId: randomBytes(7).toString('hex').toUpperCase(),
          senderBatchId,
          item,
          transactionStatus: 'PENDING',
          error: null,
        };
        batches.push(batch);
        if (loseNext) {
          loseNext = false;
          return send(500, { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error occurred.' });
        }
        return send(201, {
          batch_header: { payout_batch_id: batch.payoutBatchId, batch_status: 'PENDING', sender_batch_header: { sender_batch_id: senderBatchId } },
        });
      }
      const status = /^\/v1\/payments\/payouts\/([^/?]+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && status) {
        const batch = batches.find((b) => b.payoutBatchId === decodeURIComponent(status[1]!));
        if (!batch) return send(404, { name: 'INVALID_RESOURCE_ID', message: 'The requested resource ID was not found' });
        return send(200, batchView(batch));
      }
      return send(404, { name: 'NOT_FOUND', message: 'Not found' });
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${port}`;
  return {
    url,
    clientId,
    clientSecret,
    batches,
    duplicatesRefused: () => duplicates,
    setStatus(senderBatchId, status, error) {
      const batch = batches.find((b) => b.senderBatchId === senderBatchId);
      if (!batch) throw new Error(`no batch for ${senderBatchId}`);
      batch.transactionStatus = status;
      batch.error = error ?? null;
    },
    loseNextAnswer() {
      loseNext = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
