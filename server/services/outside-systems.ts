// The implementations of the outside systems' interfaces (server/adapters/) the configuration
// chooses: files, counters, content changes, payments, sign-in providers and code senders, conversions.
import { join, resolve } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import type { OAuthPlatform } from '#common/social-platforms.ts';
import { MetaConversionsApi } from '../adapters/conversions/meta-conversions-api.ts';
import { type ContentChanges, LocalContentChanges } from '../adapters/content-changes/content-changes.ts';
import { RedisContentChanges } from '../adapters/content-changes/redis-content-changes.ts';
import { OAuthProvider } from '../adapters/identity/oauth-providers.ts';
import type { PaymentProvider } from '../adapters/payments/payment-provider.ts';
import { SandboxPayments } from '../adapters/payments/sandbox-payments.ts';
import { XsollaApi } from '../adapters/payments/xsolla-api.ts';
import { XsollaPayments } from '../adapters/payments/xsolla-payments.ts';
import type { MailTransport } from '../adapters/mail/mail-transport.ts';
import type { PayoutProvider } from '../adapters/payouts/payout-provider.ts';
import { PayPalPayouts } from '../adapters/payouts/paypal-payouts.ts';
import { StandInPayouts } from '../adapters/payouts/stand-in-payouts.ts';
import { SmtpTransport } from '../adapters/mail/smtp-transport.ts';
import { DiskStorage } from '../adapters/storage/disk-storage.ts';
import type { FileStorage } from '../adapters/storage/file-storage.ts';
import { bucketIncomingUploads, folderIncomingUploads, type IncomingUploads } from '../adapters/storage/incoming-uploads.ts';
import { S3Storage, s3ClientConfig } from '../adapters/storage/s3-storage.ts';
import { CloudApiCodeSender } from '../adapters/whatsapp/cloud-api-code-sender.ts';
import { type CodeSender, DevelopmentInbox } from '../adapters/whatsapp/code-sender.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { createRateLimiter } from '../adapters/rate-limits/create-rate-limiter.ts';
import type { RateLimiter } from '../adapters/rate-limits/rate-limiter.ts';

/** The outside systems of one process, built once from the configuration. */
export interface OutsideSystems {
  /** What members and imports upload (avatars, article media), served at /uploads/ (or STORAGE_PUBLIC_URL). */
  uploads: FileStorage;
  /** Developers' builds: a folder or prefix of their own, never served on the portal (decision 097). */
  buildFiles: FileStorage;
  /** Members' data archives: a folder or prefix of their own, never served (decision 144). */
  memberExports: FileStorage;
  /** Unfinished build uploads (decision 109): in BUILDS_DIR/.incoming, or in the bucket where every instance resumes them. */
  incomingUploads: IncomingUploads;
  rateLimiter: RateLimiter;
  contentChanges: ContentChanges;
  /** null with PAYMENTS_PROVIDER=off. */
  paymentsProvider: PaymentProvider | null;
  /** The development WhatsApp sender's inbox, when that sender is configured. */
  whatsappInbox: DevelopmentInbox | null;
  /** Where sign-in codes go: the Cloud API, the development inbox, or nowhere. */
  whatsapp: CodeSender | null;
  /** The configured OAuth providers of social sign-in. */
  identityProviders: Partial<Record<OAuthPlatform, OAuthProvider>>;
  /** The Conversions API sender when configured. */
  conversionsApi: MetaConversionsApi | null;
  /** Where mail goes (decision 141): null when mail is off. */
  mailTransport: MailTransport | null;
  /** How studios' payouts are sent (decision 149): null with PAYOUTS_PROVIDER=off. */
  payoutProvider: PayoutProvider | null;
}

export function createOutsideSystems(database: DatabaseHandle, config: Config, clock: Clock): OutsideSystems {
  const whatsappInbox = config.social.whatsapp.sender === 'development' ? new DevelopmentInbox() : null;
  return {
    ...fileStoragesFor(config),
    rateLimiter: createRateLimiter({ redisUrl: config.redisUrl, redisPrefix: config.redisPrefix, db: database.db, clock }),
    contentChanges: contentChangesFor(config),
    paymentsProvider: paymentProvider(config),
    whatsappInbox,
    whatsapp: config.social.whatsapp.sender === 'cloud' ? new CloudApiCodeSender(config.social.whatsapp) : whatsappInbox,
    identityProviders: Object.fromEntries(
      Object.entries(config.social.oauth).map(([platform, provider]) => [
        platform,
        new OAuthProvider(platform as OAuthPlatform, provider, config.publicOrigin),
      ]),
    ),
    conversionsApi: config.pixel?.conversionsApi
      ? new MetaConversionsApi({
          pixelId: config.pixel.id,
          url: config.pixel.conversionsApi.url,
          token: config.pixel.conversionsApi.token,
          publicOrigin: config.publicOrigin,
        })
      : null,
    mailTransport: config.mail.smtpUrl ? new SmtpTransport({ url: config.mail.smtpUrl, from: config.mail.from }) : null,
    payoutProvider: payoutProvider(config),
  };
}

/**
 * The folders (the default), or one S3-compatible bucket with a prefix for each (decision 150):
 * `<prefix>uploads/`, `builds/`, `exports/`, `incoming/`.
 */
export function fileStoragesFor(config: Config): Pick<OutsideSystems, 'uploads' | 'buildFiles' | 'memberExports' | 'incomingUploads'> {
  const bucket = config.objectStorage;
  if (!bucket) {
    return {
      uploads: new DiskStorage(resolve(config.uploadDir), '/uploads/'),
      buildFiles: new DiskStorage(resolve(config.buildsDir), '/'),
      memberExports: new DiskStorage(resolve(config.exportsDir), '/'),
      // Not served: the public prefix is never used.
      incomingUploads: folderIncomingUploads(new DiskStorage(join(resolve(config.buildsDir), '.incoming'), '/')),
    };
  }
  const clientConfig = s3ClientConfig(bucket);
  const client = new S3Client(clientConfig);
  const storage = (name: string, publicPrefix: string) => new S3Storage({ client, bucket: bucket.bucket, keyPrefix: `${bucket.prefix}${name}/`, publicPrefix });
  return {
    uploads: storage('uploads', bucket.publicUrl ?? '/uploads/'),
    buildFiles: storage('builds', '/'),
    memberExports: storage('exports', '/'),
    incomingUploads: bucketIncomingUploads(storage('incoming', '/'), { ...clientConfig, bucket: bucket.bucket }),
  };
}

function payoutProvider(config: Config): PayoutProvider | null {
  const payouts = config.payouts;
  if (payouts.provider === 'paypal') return new PayPalPayouts(payouts);
  if (payouts.provider === 'stand-in') return new StandInPayouts(resolve(payouts.file));
  return null;
}

function paymentProvider(config: Config): PaymentProvider | null {
  const payments = config.payments;
  if (payments.provider === 'off') return null;
  if (payments.provider === 'sandbox') return new SandboxPayments({ webhookUrl: payments.webhookUrl, secret: payments.webhookSecret });
  return new XsollaPayments(new XsollaApi(payments), {
    sandbox: payments.sandbox,
    payStationUrl: payments.payStationUrl,
    webhookSecret: payments.webhookSecret,
  });
}

function contentChangesFor(config: Config): ContentChanges {
  if (!config.redisUrl) return new LocalContentChanges();
  return new RedisContentChanges(config.redisUrl, {
    prefix: config.redisPrefix,
    onError: (error) =>
      console.error(
        `Content changes could not be shared through Redis (${error instanceof Error ? error.message : String(error)}); other instances see them when their caches expire.`,
      ),
  });
}
