import nodemailer, { type Transporter } from 'nodemailer';
import { type MailMessage, MailSendFailure, type MailTransport } from './mail-transport.ts';

/** How long one attempt may take, connection and answer, before it counts as failed. */
const TIMEOUT_MS = 20_000;

/** Mail over SMTP (`smtp://`, STARTTLS when offered) or SMTPS (`smtps://`), from `from`. */
export class SmtpTransport implements MailTransport {
  readonly #transporter: Transporter;
  readonly #from: string;

  constructor(options: { url: string; from: string }) {
    const url = new URL(options.url);
    this.#from = options.from;
    this.#transporter = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    });
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.#transporter.sendMail({
        from: this.#from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: { 'Content-Language': message.language },
      });
    } catch (error) {
      throw new MailSendFailure(error instanceof Error ? error.message : String(error));
    }
  }

  close(): void {
    this.#transporter.close();
  }
}
