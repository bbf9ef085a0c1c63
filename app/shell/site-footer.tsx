import { ExternalLink } from 'lucide-react';
import { useTranslation } from '../i18n/translation.tsx';
import { Link } from 'react-router';
import { localePath } from '#common/locales.ts';
import { cn } from '../ui/cn.ts';
import { focusRing } from '../ui/focus.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { DEVELOPERS_PAGE } from './menu-items.ts';

const LINKS = [
  { to: '/about', key: 'footer.about' },
  { to: '/terms', key: 'footer.terms' },
  { to: '/privacy-policy', key: 'footer.privacy' },
  { to: '/cookie-policy', key: 'footer.cookies' },
  // Studios find their way in here (decision 120).
  { to: DEVELOPERS_PAGE, key: 'footer.developers' },
] as const;

/** The copyright year; the page is rendered fresh often enough for it to roll over on time. */
function currentYear(): number {
  return new Date().getFullYear();
}

const linkClass = cn('rounded text-zinc-600 hover:text-zinc-900 hover:underline dark:text-zinc-400 dark:hover:text-zinc-100', focusRing);

/** Desktop footer (spec section 2): copyright with the current year, legal pages, the developers' page and the community chat. */
export function SiteFooter({ productName, communityChatUrl }: { productName: string; communityChatUrl: string }) {
  const { t } = useTranslation('shell');
  const locale = useLocale();
  return (
    <footer data-testid="site-footer" className="hidden border-t border-zinc-200 md:block dark:border-zinc-800">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-8 gap-y-3 px-4 py-6 text-sm">
        <p className="text-zinc-600 dark:text-zinc-400">{t('footer.copyright', { year: currentYear(), product: productName })}</p>
        <nav aria-label={t('footer.label')}>
          <ul className="flex flex-wrap items-center gap-x-5 gap-y-2">
            {LINKS.map((link) => (
              <li key={link.to}>
                <Link to={localePath(locale, link.to)} className={linkClass}>
                  {t(link.key)}
                </Link>
              </li>
            ))}
            <li>
              <a href={communityChatUrl} target="_blank" rel="noopener noreferrer" className={cn(linkClass, 'inline-flex items-center gap-1')}>
                {t('footer.community')}
                <ExternalLink className="size-3.5" aria-hidden />
                <span className="sr-only">{t('footer.newTab')}</span>
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
