import { Link } from 'react-router';
import { useTranslation } from '../i18n/translation.tsx';
import { localePath } from '#common/locales.ts';
import { focusRing } from '../ui/focus.ts';
import { cn } from '../ui/cn.ts';
import { useLocale } from '../i18n/use-locale.ts';

/** The product mark: the same drawing as the favicon. */
function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden className={className}>
      <rect width="64" height="64" rx="14" fill="#16a34a" />
      <path d="M22 16h13a12 12 0 0 1 0 24h-6v8h-7zm7 7v10h5a5 5 0 0 0 0-10z" fill="#fff" />
      <circle cx="46" cy="46" r="5" fill="#bbf7d0" />
    </svg>
  );
}

/** Logo linking to the home page of the current locale. */
export function Logo({ productName }: { productName: string }) {
  const locale = useLocale();
  const { t } = useTranslation('shell');
  return (
    <Link
      to={localePath(locale, '/')}
      aria-label={t('nav.logo', { product: productName })}
      className={cn('flex shrink-0 items-center gap-2 rounded-lg text-lg font-bold tracking-tight text-zinc-900 dark:text-zinc-50', focusRing)}
    >
      <LogoMark className="size-8" />
      <span>{productName}</span>
    </Link>
  );
}
