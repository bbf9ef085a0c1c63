import type { PaymentProvider } from '#server/adapters/payments/payment-provider.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { callMode, type Mode, type PreviewCheck } from '#server/lib/preview-access.ts';
import type { PaymentsRepository } from './payments.repository.ts';

/**
 * The mode of an order, inventory or consumption (decision 111). Through a build's preview of
 * this game, to its developer or a QA test member, test; otherwise live, for a published game.
 * An unpublished one answers only in test (decision 097), else 404 as a game that does not exist.
 * A preview label that does not hold on a published game is ignored, except by a purchase
 * (`refuseUnbound`): it asked for a test, so it is refused rather than made live.
 */
export async function modeOf(
  repository: PaymentsRepository,
  previews: Pick<PreviewCheck, 'previewAllows'> | null,
  caller: Caller,
  appId: number,
  preview: string | undefined,
  options: { refuseUnbound?: boolean } = {},
): Promise<Mode> {
  const call = await callMode(await repository.appPublished(appId), previews, caller, appId, preview);
  if (!call) throw new AppError('not_found', { messageKey: 'errors:notFound' });
  if (call.unboundLabel && options.refuseUnbound) throw new AppError('forbidden', { messageKey: 'payments:errors.previewNotBound' });
  return call.mode;
}

/** The configured provider; payments off answer 404. */
export function requireProvider(provider: PaymentProvider | null): PaymentProvider {
  if (!provider) throw new AppError('not_found', { messageKey: 'payments:errors.unavailable' });
  return provider;
}
