import { Check, Link as LinkIcon, Share2 } from 'lucide-react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Button, buttonVariants } from '../../ui/button.tsx';
import { useCopy } from '../../shell/use-copy.ts';
import { useBrowserCapability } from '../../lib/use-browser-capability.ts';

/** Share targets that take a URL in a query (no scripts of theirs on our pages). */
const TARGETS = [
  { name: 'X', href: (url: string, title: string) => `https://x.com/intent/post?url=${encodeURIComponent(url)}&text=${encodeURIComponent(title)}` },
  { name: 'Facebook', href: (url: string) => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}` },
  { name: 'WhatsApp', href: (url: string, title: string) => `https://wa.me/?text=${encodeURIComponent(`${title} ${url}`)}` },
] as const;

const hasShareSheet = () => typeof navigator.share === 'function';

/** Share and copy-link actions for one article. */
export function ShareActions({ url, title, summary }: { url: string; title: string; summary: string }) {
  const { t } = useTranslation('articles');
  const { copy, copied } = useCopy();
  // The system share sheet exists only in some browsers; the server renders without it, so hydration matches.
  const canShare = useBrowserCapability(hasShareSheet);

  async function share() {
    try {
      await navigator.share({ title, text: summary, url });
    } catch {
      // Closing the share sheet rejects too; there is nothing to report.
    }
  }

  return (
    <section aria-label={t('share.label')} className="flex flex-wrap items-center gap-2" data-testid="share-actions">
      {canShare && (
        <Button variant="secondary" size="sm" onClick={share}>
          <Share2 aria-hidden="true" />
          {t('share.share')}
        </Button>
      )}
      <Button variant="secondary" size="sm" onClick={() => void copy(url)} data-testid="copy-link" data-copied={copied || undefined}>
        {copied ? <Check aria-hidden="true" className="text-green-700 dark:text-green-400" /> : <LinkIcon aria-hidden="true" />}
        <span aria-live="polite">{copied ? t('share.copied') : t('share.copyLink')}</span>
      </Button>
      {TARGETS.map((target) => (
        <a
          key={target.name}
          href={target.href(url, title)}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('share.on', { platform: target.name })}
          className={buttonVariants({ variant: 'ghost', size: 'sm' })}
        >
          {target.name}
        </a>
      ))}
    </section>
  );
}
