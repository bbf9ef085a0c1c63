import { useEffect, useState } from 'react';
import { OAUTH_CHANNEL, isOAuthPlatform } from '#common/social-platforms.ts';
import { sameOriginPath } from '#common/same-origin-path.ts';
import { Button } from '../../ui/button.tsx';
import { messageOf } from '../../ui/form-errors.ts';
import type { PopupPageData } from './oauth-pages.server.ts';
import { type OAuthMessage, takeSameTabFlow } from './oauth-popup.ts';
import { submitSocialAnswer } from './social-session.ts';

/**
 * The pop-up pages' face: a failure with a way to close, or (the callback) the hand-over of the
 * provider's answer to the page that opened the pop-up, on the named BroadcastChannel (it still
 * arrives when a provider's Cross-Origin-Opener-Policy cut `window.opener`) and to the opener;
 * then the window closes. Opened in the tab itself (pop-ups blocked), it finishes the sign-in here
 * and goes back.
 */
export function PopupPage({ page }: { page: PopupPageData }) {
  const [status, setStatus] = useState<string>(page.failure ?? page.texts.returning);
  const [finished, setFinished] = useState(page.failure !== null);

  useEffect(() => {
    const answer = page.answer;
    if (!answer) return;
    const sameTab = takeSameTabFlow(answer);
    if (sameTab && isOAuthPlatform(answer.platform)) {
      submitSocialAnswer(sameTab.kind, answer.platform, answer).then(
        () => window.location.replace(sameOriginPath(sameTab.returnTo, '/')),
        (failure: unknown) => {
          setStatus(messageOf(failure, page.texts.returning));
          setFinished(true);
        },
      );
      return;
    }
    const message: OAuthMessage = { action: 'oauth', data: answer };
    if (typeof BroadcastChannel !== 'undefined') {
      const channel = new BroadcastChannel(OAUTH_CHANNEL);
      // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a BroadcastChannel reaches this origin only and takes no target
      channel.postMessage(message);
      channel.close();
    }
    window.opener?.postMessage(message, window.location.origin);
    // A moment for the messages to leave before the window goes; a window the page may not close says it is done.
    const closing = setTimeout(() => {
      window.close();
      setStatus(page.texts.done);
      setFinished(true);
    }, 100);
    return () => clearTimeout(closing);
  }, [page]);

  return (
    <div className="grid min-h-dvh place-items-center p-6 text-center" data-testid="oauth-popup">
      <div className="max-w-sm space-y-4">
        <h1 className="text-xl font-semibold">{page.platformName}</h1>
        <output data-testid="oauth-popup-status" className="block text-sm text-zinc-600 dark:text-zinc-300">
          {status}
        </output>
        {finished && (
          <Button variant="secondary" onClick={() => window.close()}>
            {page.texts.close}
          </Button>
        )}
      </div>
    </div>
  );
}
