/*
 * How a studio's payout leaves the portal (decision 149): sent once per payout, whatever the
 * number of attempts, because every attempt names the payout's public id as its key; then its
 * result is read back until it is settled.
 */

/** One transfer to send: `key` is the payout's public id, the same on every attempt. */
export interface PayoutTransfer {
  key: string;
  amountMinor: number;
  currency: string;
  /** The provider's receiver: an e-mail address for PayPal. */
  receiver: string;
}

/** What became of a sent transfer. */
export type PayoutState = { state: 'pending' } | { state: 'paid' } | { state: 'failed'; reason: string } | { state: 'returned'; reason: string };

export type PayoutMethod = 'stand-in' | 'paypal';

export interface PayoutProvider {
  readonly method: PayoutMethod;
  /**
   * Sends the transfer, or finds the one already sent with the same key: either way answers the
   * provider's reference of it. Throws `PayoutRefused` when the provider will never take it; any
   * other error may be retried with the same key.
   */
  send(transfer: PayoutTransfer): Promise<{ reference: string }>;
  /** The state of a transfer `send` answered `reference` for. */
  status(reference: string): Promise<PayoutState>;
}

/** The provider refused the transfer for good (a bad receiver, a denied batch): sending again changes nothing. */
export class PayoutRefused extends Error {
  override name = 'PayoutRefused';
  readonly reason: string;
  constructor(reason: string) {
    super(`payout refused: ${reason}`);
    this.reason = reason;
  }
}
