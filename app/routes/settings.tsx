import { useTranslation } from 'react-i18next';
import { isLocale, LOCALES } from '#common/locales.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import { type ColorMode, COLOR_MODES, useColorMode } from '../shell/color-mode.ts';
import { useLanguageChoice } from '../shell/language-selector.tsx';
import { COLOR_MODE_ICONS } from '../shell/color-mode-icons.ts';
import { RadioCard, RadioCards } from '../ui/radio-cards.tsx';
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
      <section aria-labelledby="settings-appearance" className="mt-8">
        <h2 id="settings-appearance" className="text-base font-semibold">
          {t('settings.appearance')}
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('settings.appearanceHint')}</p>
        <RadioCards
          aria-labelledby="settings-appearance"
          className="mt-4"
          value={mode ?? ''}
          onValueChange={(value) => setMode(value as ColorMode)}
          data-testid="settings-appearance"
        >
          {COLOR_MODES.map((m) => {
            const Icon = COLOR_MODE_ICONS[m];
            return <RadioCard key={m} value={m} label={t(`colorMode.${m}`)} hint={t(`colorMode.${m}Hint`)} icon={<Icon className="size-5" aria-hidden />} />;
          })}
        </RadioCards>
      </section>
      <section aria-labelledby="settings-language" className="mt-10">
        <h2 id="settings-language" className="text-base font-semibold">
          {t('settings.language')}
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('settings.languageHint')}</p>
        <RadioCards
          aria-labelledby="settings-language"
          className="mt-4 sm:grid-cols-2"
          value={locale}
          onValueChange={(value) => isLocale(value) && void choose(value)}
          disabled={pending !== null}
          data-testid="settings-language"
        >
          {LOCALES.map((l) => (
            <RadioCard key={l.code} value={l.code} label={l.name} lang={l.language} />
          ))}
        </RadioCards>
      </section>
      <ConsentSetting />
    </div>
  );
}
