/**
 * Hands one message to a mail server. `SmtpTransport` speaks SMTP (or SMTPS) to the server
 * `SMTP_URL` names; in development and tests that is a local `smtp-server` on loopback.
 */
export interface MailTransport {
  /** Resolves once the server accepted the message; rejects with `MailSendFailure` otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The message's language, sent as Content-Language. */
  language: string;
}

export class MailSendFailure extends Error {
  override name = 'MailSendFailure';
}
