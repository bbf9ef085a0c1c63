import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/translation.tsx';
import { useLocation, useNavigation } from 'react-router';

/** Spec section 9: a page transition settles in about this long. */
export const SETTLE_MS = 100;

/**
 * Page transitions (spec section 9). A client navigation that takes longer than the settle time
 * shows a thin bar at the top (fixed, so nothing moves); a quick one shows nothing. The new
 * page's main content then fades in over the settle time: opacity only, never a layout shift.
 */
export function PageSettle() {
  const { t } = useTranslation('common');
  const navigation = useNavigation();
  const { key } = useLocation();
  const [slow, setSlow] = useState(false);
  const firstKey = useRef(key);

  const busy = navigation.state === 'loading';
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setSlow(true), SETTLE_MS);
    return () => {
      clearTimeout(timer);
      setSlow(false);
    };
  }, [busy]);

  useEffect(() => {
    // The first page was painted by the server: nothing to settle.
    if (key === firstKey.current) return;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    document.getElementById('main')?.animate([{ opacity: 0.4 }, { opacity: 1 }], { duration: SETTLE_MS, easing: 'ease-out' });
  }, [key]);

  return (
    <div
      aria-hidden="true"
      title={slow ? t('loading') : undefined}
      data-testid="navigation-progress"
      className={`pointer-events-none fixed inset-x-0 top-0 z-[60] h-0.5 origin-left bg-green-600 transition-[opacity,transform] duration-300 ease-out motion-reduce:transition-none ${slow ? 'scale-x-75 opacity-100' : 'scale-x-0 opacity-0'}`}
    />
  );
}
