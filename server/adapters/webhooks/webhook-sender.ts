/**
 * Delivers a game's webhook to its backend and reports what came back. Over HTTP today
 * (`HttpWebhookSender`); the webhooks feature decides what to send, when, and what an answer means.
 */
/** How many bytes of an answer's body the delivery log keeps. */
export const KEPT_RESPONSE_BYTES = 512;

export interface WebhookAnswer {
  /** The HTTP status, or null when no answer came (refused address, connection error, timeout). */
  statusCode: number | null;
  /** The first bytes of the body, as text. */
  body: string | null;
  error: string | null;
  /** Set when the address was refused (not public): nothing was sent, and retrying cannot help. */
  refused?: boolean;
}

/** Sends one webhook: what the game's backend answered. */
export interface WebhookSender {
  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookAnswer>;
}
