import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { ACTION_DEBOUNCE_MS } from '../../../app/ui/use-pending-action.ts';
import { type Account, call } from '../../support/accounts.ts';
import { browserToken } from '../browser-session.ts';

/**
 * Waits until the page's session has settled on an account the server accepts (optionally not
 * `unlike`, a token being replaced) and answers it as the server sees it.
 */
export async function settledUser(page: Page, request: APIRequestContext, unlike?: string): Promise<Account> {
  const context = page.context();
  let account: Account | undefined;
  await expect
    .poll(
      async () => {
        const token = await browserToken(context);
        if (!token || token === unlike) return false;
        const { status, data } = await call<Account>(request, 'GET', '/member/info/', { token });
        if (status === 200) account = data;
        return status === 200;
      },
      { message: 'the page never settled on a session', timeout: 30_000, intervals: [100] },
    )
    .toBe(true);
  return account!;
}

/**
 * Lets the 500 ms button debounce (spec section 4) pass before pressing again, as a person
 * retyping a field would: a press sooner after the last one is ignored by design.
 */
export async function afterDebounce(page: Page): Promise<void> {
  await page.waitForTimeout(ACTION_DEBOUNCE_MS);
}
