import { useTranslation } from '../i18n/translation.tsx';
import { isLocale, LOCALES } from '#common/locales.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import { type ColorMode, COLOR_MODES, useColorMode } from '../shell/color-mode.ts';
import { useLanguageChoice } from '../shell/language-selector.tsx';
import { COLOR_MODE_ICONS } from '../shell/color-mode-icons.ts';
import { RadioCard, RadioCardsSection } from '../ui/radio-cards.tsx';
import { ConsentSetting } from '../features/tracking/consent-setting.tsx';
import type { Route } from './+types/settings';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.settings') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

/** Settings (spec section 2): appearance (system, light, dark), language, and the advertising-cookies choice. */
export default function Settings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('shell');
  const { mode, setMode } = useColorMode();
  const { locale, choose, pending } = useLanguageChoice();
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold tracking-tight">{loaderData.title}</h1>
      <RadioCardsSection
        id="settings-appearance"
        sectionClassName="mt-8"
        title={t('settings.appearance')}
        hint={t('settings.appearanceHint')}
        value={mode ?? ''}
        onValueChange={(value) => setMode(value as ColorMode)}
      >
        {COLOR_MODES.map((m) => {
          const Icon = COLOR_MODE_ICONS[m];
          return <RadioCard key={m} value={m} label={t(`colorMode.${m}`)} hint={t(`colorMode.${m}Hint`)} icon={<Icon className="size-5" aria-hidden />} />;
        })}
      </RadioCardsSection>
      <RadioCardsSection
        id="settings-language"
        title={t('settings.language')}
        hint={t('settings.languageHint')}
        columns={2}
        value={locale}
        onValueChange={(value) => isLocale(value) && void choose(value)}
        disabled={pending !== null}
      >
        {LOCALES.map((l) => (
          <RadioCard key={l.code} value={l.code} label={l.name} lang={l.language} />
        ))}
      </RadioCardsSection>
      <ConsentSetting />
    </div>
  );
}
