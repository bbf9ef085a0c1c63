import type { PaymentNotifications, PaymentProvider } from '#server/adapters/payments/payment-provider.ts';
import type { SandboxCards } from '#server/adapters/payments/sandbox-payments.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { PreviewCheck } from '#server/lib/preview-access.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { BuildsService } from '../studio/builds.service.ts';
import type { ConversionsService } from '../tracking/conversions.service.ts';
import type { LedgerService } from '../earnings/ledger.service.ts';
import type { WebhooksService } from '../webhooks/webhooks.service.ts';
import type { PaymentsRepository } from './payments.repository.ts';

/** Hooks a test may set to stop the process while a notification is handled (APP_ENV=test only). */
export interface WebhookFaults {
  beforeCommit?: () => void;
  afterCommit?: () => void;
}

/** What the payments services are built from; each part of the feature takes the fields it uses. */
export interface PaymentsDependencies {
  repository: PaymentsRepository;
  accounts: Pick<AccountsService, 'userInfo'>;
  clock: Clock;
  /** Null when payments are off. */
  provider: PaymentProvider | null;
  /** Reads and answers the webhook's notifications: the provider itself, or (payments off) a webhook that accepts none. */
  notifications: PaymentNotifications;
  /** The sandbox's test-card form, when the sandbox is the provider. */
  sandboxCards: SandboxCards | null;
  faults?: WebhookFaults;
  /** The server's copy of advertising conversions (decision 065); none when not configured. */
  conversions?: Pick<ConversionsService, 'purchase'>;
  /** The game's webhooks (decision 100), queued in the transaction of each paid, refunded or consumed change. */
  webhooks?: Pick<WebhooksService, 'orderChanged' | 'itemsConsumed'>;
  /** Studios' earnings (decision 149): each money change posts its ledger lines in the change's transaction. */
  ledger?: Pick<LedgerService, 'orderChanged'>;
  /** Lets a build's preview buy a game's items in test mode, with test payments only (decisions 097 and 111). */
  preview?: Pick<BuildsService, keyof PreviewCheck>;
}
