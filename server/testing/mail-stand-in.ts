import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** How many messages the stand-in keeps, newest first. */
const KEPT = 50;

/**
 * A real SMTP server on 127.0.0.1 (decision 141) for development and tests: it accepts every
 * message, parses it and keeps the last 50. With `inboxPort` it also serves them as a page, the
 * development mail inbox (`/`), and as JSON (`/messages`). Never part of a production server.
 */
export async function startMailStandIn(options: { smtpPort?: number; inboxPort?: number } = {}) {
  const received: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.unshift(mail);
          received.length = Math.min(received.length, KEPT);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(options.smtpPort ?? 0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  let inbox: Server | null = null;
  if (options.inboxPort !== undefined) {
    inbox = createServer((request, response) => {
      if (request.url === '/messages') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received.map(summaryOf)));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(inboxPage(received));
    });
    await new Promise<void>((resolve) => inbox!.listen(options.inboxPort, '127.0.0.1', resolve));
  }
  const inboxUrl = inbox ? `http://127.0.0.1:${(inbox.address() as AddressInfo).port}/` : null;
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    smtpPort,
    inboxUrl,
    /** Newest first. */
    received,
    async stop() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      if (inbox) await new Promise<void>((resolve) => inbox!.close(() => resolve()));
    },
  };
}

function summaryOf(mail: ParsedMail) {
  const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
  return {
    to,
    subject: mail.subject ?? '',
    date: mail.date?.toISOString() ?? '',
    language: String(mail.headers.get('content-language') ?? ''),
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : '',
  };
}

function inboxPage(received: ParsedMail[]): string {
  const rows = received
    .map(summaryOf)
    .map(
      (m) =>
        `<article data-testid="mail-message" lang="${escapeHtml(m.language)}" style="border-top:1px solid #ccc;padding:1rem 0">` +
        `<h2 data-testid="mail-subject">${escapeHtml(m.subject)}</h2><p>To <span data-testid="mail-to">${escapeHtml(m.to)}</span> · ${escapeHtml(m.date)} · ${escapeHtml(m.language)}</p>` +
        // The HTML part shown in a sandboxed frame: no script of a message runs here.
        `<iframe sandbox="" title="HTML part" style="width:100%;height:18rem;border:1px solid #ddd" srcdoc="${escapeHtml(m.html)}"></iframe>` +
        `<details><summary>Text part</summary><pre data-testid="mail-text">${escapeHtml(m.text)}</pre></details></article>`,
    )
    .join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Mail inbox (development)</title></head>' +
    '<body style="font-family:system-ui;margin:2rem"><h1>Mail inbox (development)</h1><p>Messages the local SMTP stand-in received, newest first.</p>' +
    (rows || '<p>No mail yet.</p>') +
    '</body></html>'
  );
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
