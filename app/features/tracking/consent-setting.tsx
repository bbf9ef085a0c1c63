import { useTranslation } from 'react-i18next';
import { RadioCard, RadioCards } from '../../ui/radio-cards.tsx';
import { consent } from './consent.ts';
import { useConsent } from './consent-banner.tsx';

/** Settings' advertising-cookies choice: the consent of the first visit, changed at any time. */
export function ConsentSetting() {
  const { t } = useTranslation('shell');
  const choice = useConsent();
  return (
    <section aria-labelledby="settings-consent" className="mt-10">
      <h2 id="settings-consent" className="text-base font-semibold">
        {t('consent.settingsTitle')}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('consent.settingsHint')}</p>
      <RadioCards
        aria-labelledby="settings-consent"
        className="mt-4 sm:grid-cols-2"
        value={choice ?? ''}
        onValueChange={(value) => (value === 'accepted' || value === 'declined') && consent.set(value)}
        data-testid="settings-consent"
      >
        <RadioCard value="accepted" label={t('consent.accepted')} hint={t('consent.acceptedHint')} />
        <RadioCard value="declined" label={t('consent.declined')} hint={t('consent.declinedHint')} />
      </RadioCards>
    </section>
  );
}
