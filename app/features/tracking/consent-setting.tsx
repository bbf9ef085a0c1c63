import { useTranslation } from '../../i18n/translation.tsx';
import { RadioCard, RadioCardsSection } from '../../ui/radio-cards.tsx';
import { consent } from './consent.ts';
import { useConsent } from './consent-banner.tsx';

/** Settings' advertising-cookies choice: the consent of the first visit, changed at any time. */
export function ConsentSetting() {
  const { t } = useTranslation('shell');
  const choice = useConsent();
  return (
    <RadioCardsSection
      id="settings-consent"
      title={t('consent.settingsTitle')}
      hint={t('consent.settingsHint')}
      columns={2}
      value={choice ?? ''}
      onValueChange={(value) => (value === 'accepted' || value === 'declined') && consent.set(value)}
    >
      <RadioCard value="accepted" label={t('consent.accepted')} hint={t('consent.acceptedHint')} />
      <RadioCard value="declined" label={t('consent.declined')} hint={t('consent.declinedHint')} />
    </RadioCardsSection>
  );
}
