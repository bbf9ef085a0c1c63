// The local SMTP stand-in (server/testing/mail-stand-in.ts, decision 141) on its own, for the
// end-to-end run: SMTP on MAIL_STAND_IN_SMTP_PORT, the inbox page on MAIL_STAND_IN_INBOX_PORT.
import { startMailStandIn } from '../server/testing/mail-stand-in.ts';

const standIn = await startMailStandIn({
  smtpPort: Number(process.env.MAIL_STAND_IN_SMTP_PORT ?? 2525),
  inboxPort: Number(process.env.MAIL_STAND_IN_INBOX_PORT ?? 2526),
});
console.log(`mail stand-in: ${standIn.smtpUrl}, inbox ${standIn.inboxUrl}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void standIn.stop().finally(() => process.exit(0)));
}
