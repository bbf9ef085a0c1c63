import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/translation.tsx';
import { toast } from './toast-store.ts';

/** Spec section 9: how long a "copied" indicator stays. */
const COPIED_INDICATOR_MS = 1500;

/**
 * The copy helper of spec section 8: a success toast when the text is on the clipboard, an
 * error toast when the clipboard is unsupported or refuses; `copied` is true for 1.5 s after.
 */
export function useCopy(): { copy: (text: string) => Promise<boolean>; copied: boolean } {
  const { t } = useTranslation('shell');
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(
    async (text: string) => {
      if (!navigator.clipboard?.writeText) {
        toast.add({ title: t('copy.unsupported'), color: 'error' });
        return false;
      }
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        toast.add({ title: t('copy.failed'), color: 'error' });
        return false;
      }
      toast.add({ title: t('copy.done'), color: 'success' });
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
      return true;
    },
    [t],
  );
  return { copy, copied };
}
