import { SandboxCheckoutPage } from '../features/payments/sandbox-checkout.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { appContext } from '../context.ts';
import { pageTitle } from '../lib/meta.ts';
import { invalidParameter, orPageNotFound } from '../lib/route-errors.ts';
import type { Route } from './+types/payment-sandbox';

/** The built-in sandbox checkout (no Xsolla credentials; never in production): test cards for an order. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  if (!/^[A-Za-z0-9_-]{16,80}$/.test(token)) invalidParameter(request);
  const { locale, t } = loaderT(request);
  const checkout = await orPageNotFound(request, context.get(appContext).services.payments.sandboxCheckout(token, locale));
  return { token, checkout, title: t('payments:sandbox.title') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? ''), { name: 'robots', content: 'noindex' }];

export default function Page({ loaderData }: Route.ComponentProps) {
  return <SandboxCheckoutPage token={loaderData.token} checkout={loaderData.checkout} />;
}
