import { ImageUp, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import { PERIODS } from '#common/game-records.ts';
import type { DataOf, OperationOf } from '../../lib/api-contract.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { formatList } from '../../i18n/list-format.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { fieldErrorsOf, messageOf, useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { FormSection, SelectField, TextAreaField } from './studio-fields.tsx';

/** A game as the API answers it (GET /studio/games/{id}/); the form leaves its review to the review status. */
type StudioGame = Omit<DataOf<OperationOf<'/studio/games/{id}/', 'GET'>>, 'review'> & { review: unknown };
type Metadata = Omit<StudioGame, 'id' | 'slug' | 'published' | 'entryUrl' | 'updatedAt' | 'missing' | 'review'>;
type Term = { slug: string; title: string };
const LOCALES = ['en', 'zh-CN'] as const;

/** The form's copy of the game: what PUT /studio/games/{id}/ takes. */
function metadataOf(game: StudioGame): Metadata {
  const { id: _id, slug: _slug, published: _published, entryUrl: _entry, updatedAt: _updated, missing: _missing, review: _review, ...metadata } = game;
  return metadata;
}

/** A number typed in a field; what is not one is sent as typed, for the server to name the field. */
function num(text: string): number {
  return text.trim() === '' || Number.isNaN(Number(text)) ? (text as unknown as number) : Number(text);
}

/** The edit form of one game: texts per language, listing, images, items, leaderboards and achievements, backends. */
export function GameDetailsForm({ game, categories, tags }: { game: StudioGame; categories: Term[]; tags: Term[] }) {
  const { t } = useTranslation('studio');
  const pageLocale = useLocale();
  const revalidator = useRevalidator();
  const [value, setValue] = useState<Metadata>(() => metadataOf(game));
  const [missing, setMissing] = useState(game.missing);
  const [backends, setBackends] = useState(game.backends.join('\n'));
  const { errors, alert, fail, check, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();
  const update = (change: (draft: Metadata) => void) =>
    setValue((current) => {
      const next = structuredClone(current);
      change(next);
      return next;
    });
  const zh = value.i18n['zh-CN'] ?? {};

  const submit = (event: FormEvent) => {
    event.preventDefault();
    check({});
    run('save', async () => {
      const body = {
        ...value,
        backends: backends
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
        i18n: { en: value.i18n.en, ...(Object.values(zh).some((text) => text) ? { 'zh-CN': zh } : {}) },
      };
      try {
        const { data } = await api.put(`/studio/games/${game.id}/`, body as never);
        setValue(metadataOf(data));
        setMissing(data.missing);
        // A live game's save waits for review (decision 112); a draft's is saved as it is.
        toast.add({ title: t(data.published && data.review?.status === 'pending' ? 'changes.sent' : 'games.details.saved'), color: 'success' });
        // The page's heading and the Studio's list show the saved title.
        await revalidator.revalidate();
      } catch (failure) {
        fail(failure);
        if (Object.keys(fieldErrorsOf(failure)).length > 0) toast.add({ title: t('games.details.invalid'), color: 'error' });
      }
    });
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="relative space-y-6" data-testid="studio-game-form">
      {missing.length > 0 ? (
        <output className="block rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
          {t('games.details.missing', {
            fields: formatList(
              pageLocale,
              missing.map((field) => t(`games.details.missingField.${field}`)),
            ),
          })}
        </output>
      ) : null}

      <FormSection title={t('games.details.texts')} testId="studio-texts">
        {LOCALES.map((locale) => {
          const texts = locale === 'en' ? value.i18n.en : zh;
          const set = (field: 'title' | 'summary' | 'description' | 'instructions', text: string) =>
            update((d) => {
              if (locale === 'en') d.i18n.en[field] = text;
              else d.i18n['zh-CN'] = { ...d.i18n['zh-CN'], [field]: text };
            });
          const error = (field: string) => errors[`i18n.${locale}.${field}`];
          return (
            <fieldset key={locale} lang={locale} className="space-y-3">
              <legend className="text-sm font-semibold">{t(`games.details.language.${locale}`)}</legend>
              {locale === 'zh-CN' ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('games.details.zhHint')}</p> : null}
              <TextField
                label={t('games.details.gameTitle')}
                name={`title-${locale}`}
                value={texts.title ?? ''}
                onChange={(e) => set('title', e.target.value)}
                error={error('title')}
              />
              <TextField
                label={t('games.details.summary')}
                name={`summary-${locale}`}
                value={texts.summary ?? ''}
                onChange={(e) => set('summary', e.target.value)}
                hint={t('games.details.summaryHint')}
                error={error('summary')}
              />
              <TextAreaField
                label={t('games.details.description')}
                name={`description-${locale}`}
                value={texts.description ?? ''}
                onChange={(e) => set('description', e.target.value)}
                error={error('description')}
              />
              <TextAreaField
                label={t('games.details.instructions')}
                name={`instructions-${locale}`}
                rows={2}
                value={texts.instructions ?? ''}
                onChange={(e) => set('instructions', e.target.value)}
                error={error('instructions')}
              />
            </fieldset>
          );
        })}
      </FormSection>

      <FormSection title={t('games.details.listing')} testId="studio-listing">
        <Choices
          legend={t('games.details.categories')}
          terms={categories}
          chosen={value.categories}
          error={errors.categories ?? Object.entries(errors).find(([k]) => k.startsWith('categories.'))?.[1]}
          onChange={(chosen) => update((d) => void (d.categories = chosen))}
        />
        <Choices
          legend={t('games.details.tags')}
          terms={tags}
          chosen={value.tags}
          error={Object.entries(errors).find(([k]) => k.startsWith('tags'))?.[1]}
          onChange={(chosen) => update((d) => void (d.tags = chosen))}
        />
        <div className="grid gap-3 sm:grid-cols-3">
          <SelectField
            label={t('games.details.orientation')}
            name="orientation"
            value={value.orientation}
            onChange={(e) => update((d) => void (d.orientation = e.target.value as Metadata['orientation']))}
            options={(['any', 'landscape', 'portrait'] as const).map((o) => ({ value: o, label: t(`games.details.orientations.${o}`) }))}
          />
          <TextField
            label={t('games.details.width')}
            name="width"
            inputMode="numeric"
            value={String(value.width)}
            onChange={(e) => update((d) => void (d.width = num(e.target.value)))}
            error={errors.width}
          />
          <TextField
            label={t('games.details.height')}
            name="height"
            inputMode="numeric"
            value={String(value.height)}
            onChange={(e) => update((d) => void (d.height = num(e.target.value)))}
            error={errors.height}
          />
        </div>
      </FormSection>

      <FormSection title={t('games.details.images')} testId="studio-images">
        <ImageField
          gameId={game.id}
          label={t('games.details.thumbnail')}
          hint={t('games.details.thumbnailHint')}
          url={value.thumbnail}
          error={errors.thumbnail}
          onChange={(url) => update((d) => void (d.thumbnail = url))}
          name="thumbnail"
        />
        <ImageField
          gameId={game.id}
          label={t('games.details.cover')}
          hint={t('games.details.coverHint')}
          url={value.cover}
          error={errors.cover}
          onChange={(url) => update((d) => void (d.cover = url))}
          name="cover"
        />
        <div className="space-y-2">
          <p className="text-sm font-medium">{t('games.details.screenshots')}</p>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('games.details.screenshotsHint')}</p>
          <ul className="flex flex-wrap gap-3">
            {value.screenshots.map((url, i) => (
              <li key={url + i} className="space-y-1">
                <img src={url} alt="" className="h-20 w-32 rounded-md object-cover" />
                <Button type="button" variant="ghost" size="sm" onClick={() => update((d) => void d.screenshots.splice(i, 1))}>
                  <Trash2 aria-hidden />
                  {t('games.details.removeScreenshot', { number: i + 1 })}
                </Button>
              </li>
            ))}
          </ul>
          {value.screenshots.length < 12 ? (
            <ImageField
              gameId={game.id}
              label={t('games.details.addScreenshot')}
              url={null}
              error={Object.entries(errors).find(([k]) => k.startsWith('screenshots'))?.[1]}
              onChange={(url) => url && update((d) => void d.screenshots.push(url))}
              name="screenshot"
            />
          ) : null}
        </div>
      </FormSection>

      <FormSection title={t('games.details.items')} hint={t('games.details.itemsHint')} testId="studio-items">
        {value.items.map((item, i) => {
          const e = (field: string) => errors[`items.${i}.${field}`];
          return (
            <ListEntry
              key={i}
              legend={t('games.details.item', { number: i + 1 })}
              error={errors[`items.${i}`]}
              name={item.sku}
              onRemove={() => update((d) => void d.items.splice(i, 1))}
            >
              <TextField
                label={t('games.details.sku')}
                name={`item-${i}-sku`}
                value={item.sku}
                onChange={(ev) => update((d) => void (d.items[i]!.sku = ev.target.value))}
                error={e('sku')}
              />
              <SelectField
                label={t('games.details.kind')}
                name={`item-${i}-kind`}
                value={item.kind}
                onChange={(ev) => update((d) => void (d.items[i]!.kind = ev.target.value as 'permanent' | 'consumable'))}
                options={(['permanent', 'consumable'] as const).map((k) => ({ value: k, label: t(`games.details.kinds.${k}`) }))}
                error={e('kind')}
              />
              <TextField
                label={t('games.details.price')}
                name={`item-${i}-price`}
                inputMode="numeric"
                value={String(item.price)}
                onChange={(ev) => update((d) => void (d.items[i]!.price = num(ev.target.value)))}
                error={e('price')}
              />
              <TextField
                label={t('games.details.currency')}
                name={`item-${i}-currency`}
                value={item.currency}
                onChange={(ev) => update((d) => void (d.items[i]!.currency = ev.target.value.toUpperCase()))}
                error={e('currency')}
              />
              <BothLanguages
                field="name"
                entry={`item-${i}`}
                en={item.i18n.en.name}
                zh={item.i18n['zh-CN']?.name ?? ''}
                error={e}
                onChange={(locale, text) =>
                  update((d) => {
                    const names = d.items[i]!.i18n;
                    if (locale === 'en') names.en.name = text;
                    else names['zh-CN'] = text ? { name: text } : undefined;
                  })
                }
              />
            </ListEntry>
          );
        })}
        <Button
          type="button"
          variant="secondary"
          onClick={() => update((d) => void d.items.push({ sku: '', price: 99, currency: 'USD', kind: 'permanent', i18n: { en: { name: '' } } }))}
        >
          <Plus aria-hidden />
          {t('games.details.addItem')}
        </Button>
      </FormSection>

      <FormSection title={t('games.details.records')} testId="studio-records">
        {value.leaderboards.map((board, i) => {
          const e = (field: string) => errors[`leaderboards.${i}.${field}`];
          return (
            <ListEntry
              key={i}
              legend={t('games.details.leaderboard', { number: i + 1 })}
              error={errors[`leaderboards.${i}`]}
              name={board.id}
              onRemove={() => update((d) => void d.leaderboards.splice(i, 1))}
              backendOnly={board.backend_only}
              onBackendOnly={(checked) => update((d) => void (d.leaderboards[i]!.backend_only = checked))}
            >
              <TextField
                label={t('games.details.boardId')}
                name={`board-${i}-id`}
                value={board.id}
                onChange={(ev) => update((d) => void (d.leaderboards[i]!.id = ev.target.value))}
                error={e('id')}
              />
              <SelectField
                label={t('games.details.order')}
                name={`board-${i}-order`}
                value={board.order}
                onChange={(ev) => update((d) => void (d.leaderboards[i]!.order = ev.target.value as 'asc' | 'desc'))}
                options={(['desc', 'asc'] as const).map((o) => ({ value: o, label: t(`games.details.orders.${o}`) }))}
              />
              <SelectField
                label={t('games.details.format')}
                name={`board-${i}-format`}
                value={board.format}
                onChange={(ev) => update((d) => void (d.leaderboards[i]!.format = ev.target.value as 'number' | 'time'))}
                options={(['number', 'time'] as const).map((o) => ({ value: o, label: t(`games.details.formats.${o}`) }))}
              />
              <TextField
                label={t('games.details.min')}
                name={`board-${i}-min`}
                inputMode="numeric"
                value={String(board.min)}
                onChange={(ev) => update((d) => void (d.leaderboards[i]!.min = num(ev.target.value)))}
                error={e('min')}
              />
              <TextField
                label={t('games.details.max')}
                name={`board-${i}-max`}
                inputMode="numeric"
                value={String(board.max)}
                onChange={(ev) => update((d) => void (d.leaderboards[i]!.max = num(ev.target.value)))}
                error={e('max')}
              />
              <fieldset className="space-y-2 sm:col-span-2" aria-describedby={e('periods') ? `board-${i}-periods-error` : undefined}>
                <legend className="text-sm font-medium">{t('games.details.periods')}</legend>
                <div className="flex flex-wrap gap-x-5 gap-y-2">
                  {PERIODS.map((period) => (
                    <Checkbox
                      key={period}
                      label={t(`games.details.periodNames.${period}`)}
                      checked={board.periods.includes(period)}
                      onChange={(checked) =>
                        update((d) => {
                          const kept = d.leaderboards[i]!.periods.filter((p) => p !== period);
                          // Kept in the order the app page shows them.
                          d.leaderboards[i]!.periods = checked ? PERIODS.filter((p) => p === period || kept.includes(p)) : kept;
                        })
                      }
                    />
                  ))}
                </div>
                {e('periods') ? (
                  <p id={`board-${i}-periods-error`} className="text-sm text-red-700 dark:text-red-400" data-testid="field-error" role="alert">
                    {e('periods')}
                  </p>
                ) : null}
              </fieldset>
              <BothLanguages
                field="name"
                entry={`board-${i}`}
                en={board.i18n.en.name}
                zh={board.i18n['zh-CN'].name}
                error={e}
                onChange={(locale, text) => update((d) => void (d.leaderboards[i]!.i18n[locale].name = text))}
              />
            </ListEntry>
          );
        })}
        {value.achievements.map((achievement, i) => {
          const e = (field: string) => errors[`achievements.${i}.${field}`];
          const texts = achievement.i18n;
          return (
            <ListEntry
              key={`a${i}`}
              legend={t('games.details.achievement', { number: i + 1 })}
              error={errors[`achievements.${i}`]}
              name={achievement.id}
              onRemove={() => update((d) => void d.achievements.splice(i, 1))}
              backendOnly={achievement.backend_only}
              onBackendOnly={(checked) => update((d) => void (d.achievements[i]!.backend_only = checked))}
            >
              <TextField
                label={t('games.details.boardId')}
                name={`achievement-${i}-id`}
                value={achievement.id}
                onChange={(ev) => update((d) => void (d.achievements[i]!.id = ev.target.value))}
                error={e('id')}
              />
              <ImageField
                gameId={game.id}
                label={t('games.details.achievementIcon')}
                hint={t('games.details.achievementIconHint')}
                url={achievement.icon ?? null}
                error={e('icon')}
                onChange={(url) => update((d) => void (d.achievements[i]!.icon = url ?? undefined))}
                name={`achievement-${i}-icon`}
              />
              <BothLanguages
                field="name"
                entry={`achievement-${i}`}
                en={texts.en.name}
                zh={texts['zh-CN'].name}
                error={e}
                onChange={(locale, text) => update((d) => void (d.achievements[i]!.i18n[locale].name = text))}
              />
              <BothLanguages
                field="description"
                entry={`achievement-${i}`}
                en={texts.en.description}
                zh={texts['zh-CN'].description}
                error={e}
                onChange={(locale, text) => update((d) => void (d.achievements[i]!.i18n[locale].description = text))}
              />
            </ListEntry>
          );
        })}
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="secondary"
            onClick={() =>
              update(
                (d) =>
                  void d.leaderboards.push({
                    id: '',
                    order: 'desc',
                    format: 'number',
                    min: 0,
                    max: 1_000_000,
                    periods: ['all-time'],
                    backend_only: false,
                    i18n: { en: { name: '' }, 'zh-CN': { name: '' } },
                  }),
              )
            }
          >
            <Plus aria-hidden />
            {t('games.details.addLeaderboard')}
          </Button>
          <Button
            type="button"
            variant="secondary"
            onClick={() =>
              update(
                (d) =>
                  void d.achievements.push({
                    id: '',
                    backend_only: false,
                    i18n: { en: { name: '', description: '' }, 'zh-CN': { name: '', description: '' } },
                  }),
              )
            }
          >
            <Plus aria-hidden />
            {t('games.details.addAchievement')}
          </Button>
        </div>
      </FormSection>

      <FormSection title={t('games.details.backends')} testId="studio-backends">
        <TextAreaField
          label={t('games.details.backendsLabel')}
          name="backends"
          rows={3}
          value={backends}
          onChange={(e) => setBackends(e.target.value)}
          hint={t('games.details.backendsHint')}
          error={Object.entries(errors).find(([k]) => k.startsWith('backends'))?.[1]}
        />
      </FormSection>

      <FormAlert message={alert} />
      <div className="sticky bottom-0 -mx-1 bg-white/90 px-1 py-3 backdrop-blur dark:bg-zinc-950/90">
        <Button type="submit" disabled={pending !== null} data-testid="studio-game-save">
          {t('games.details.save')}
        </Button>
      </div>
      <LoadingOverlay show={pending !== null} />
    </form>
  );
}

/** One entry of a list the form edits (an item, a leaderboard, an achievement): its fields in a grid, whether only the game's backend may write it (leaderboards and achievements), and its remove button (named by `name`, else by the legend). */
function ListEntry({
  legend,
  error,
  name,
  onRemove,
  backendOnly,
  onBackendOnly,
  children,
}: {
  legend: string;
  error?: string | undefined;
  name: string;
  onRemove: () => void;
  backendOnly?: boolean;
  onBackendOnly?: (checked: boolean) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('studio');
  return (
    <fieldset className="space-y-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold">{legend}</legend>
      {error ? (
        <p tabIndex={-1} data-form-error className="text-sm text-red-700 outline-none dark:text-red-400">
          {error}
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">{children}</div>
      {onBackendOnly ? <Checkbox label={t('games.details.backendOnly')} checked={backendOnly ?? false} onChange={onBackendOnly} /> : null}
      <Button type="button" variant="ghost" size="sm" onClick={onRemove}>
        <Trash2 aria-hidden />
        {t('games.details.remove', { name: name || legend })}
      </Button>
    </fieldset>
  );
}

/** A text of a list entry in both languages (its name, an achievement's description), side by side. */
function BothLanguages({
  field,
  entry,
  en,
  zh,
  error,
  onChange,
}: {
  field: 'name' | 'description';
  /** The entry's field-name prefix (`board-0`). */
  entry: string;
  en: string;
  zh: string;
  /** The error at a path under the entry (`i18n.en.name`). */
  error: (path: string) => string | undefined;
  onChange: (locale: (typeof LOCALES)[number], text: string) => void;
}) {
  const { t } = useTranslation('studio');
  return (
    <>
      <TextField
        label={t(`games.details.${field}En`)}
        name={`${entry}-${field}-en`}
        value={en}
        onChange={(ev) => onChange('en', ev.target.value)}
        error={error(`i18n.en.${field}`)}
      />
      <TextField
        label={t(`games.details.${field}Zh`)}
        name={`${entry}-${field}-zh`}
        lang="zh-CN"
        value={zh}
        onChange={(ev) => onChange('zh-CN', ev.target.value)}
        error={error(`i18n.zh-CN.${field}`)}
      />
    </>
  );
}

function Checkbox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" className="size-4 accent-green-700" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** Checkboxes for categories or tags. */
function Choices({
  legend,
  terms,
  chosen,
  error,
  onChange,
}: {
  legend: string;
  terms: Term[];
  chosen: string[];
  error?: string | undefined;
  onChange: (chosen: string[]) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {terms.map((term) => (
          <Checkbox
            key={term.slug}
            label={term.title}
            checked={chosen.includes(term.slug)}
            onChange={(checked) => onChange(checked ? [...chosen, term.slug] : chosen.filter((slug) => slug !== term.slug))}
          />
        ))}
      </div>
      {error ? (
        <p tabIndex={-1} data-form-error className="text-sm text-red-700 outline-none dark:text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** One image: chosen from the device, uploaded at once (the server checks and re-encodes it), shown, removable. */
function ImageField({
  gameId,
  label,
  hint,
  url,
  error,
  name,
  onChange,
}: {
  gameId: number;
  label: string;
  hint?: string;
  url: string | null;
  error?: string | undefined;
  name: string;
  onChange: (url: string | null) => void;
}) {
  const { t } = useTranslation('studio');
  const id = useId();
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setProblem(null);
    try {
      const form = new FormData();
      form.append('image', file);
      const { data } = await api.post(`/studio/games/${gameId}/images/`, form);
      onChange(data.url);
    } catch (failure) {
      setProblem(fieldErrorsOf(failure).image ?? messageOf(failure, t('errors:generic')));
    } finally {
      setUploading(false);
    }
  };
  const shown = problem ?? error;
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {hint ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{hint}</p> : null}
      <div className="flex flex-wrap items-center gap-3">
        {url ? <img src={url} alt="" className="h-20 w-32 rounded-md object-cover" data-testid={`studio-image-${name}`} /> : null}
        <span className="relative inline-flex">
          <input
            id={id}
            name={name}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
            aria-invalid={shown ? true : undefined}
            className="block w-full max-w-xs text-sm file:mr-3 file:h-10 file:cursor-pointer file:rounded-lg file:border file:border-zinc-300 file:bg-white file:px-3 dark:file:border-zinc-700 dark:file:bg-zinc-900 dark:file:text-zinc-100"
            disabled={uploading}
            onChange={(e) => {
              void choose(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </span>
        {uploading ? (
          <output className="inline-flex items-center gap-1 text-sm">
            <ImageUp className="size-4" aria-hidden />
            {t('games.details.uploading')}
          </output>
        ) : null}
        {url && name !== 'screenshot' ? (
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange(null)}>
            <Trash2 aria-hidden />
            {t('games.details.removeImage')}
          </Button>
        ) : null}
      </div>
      {shown ? (
        <p className="text-sm text-red-700 dark:text-red-400" data-testid="field-error" role="alert">
          {shown}
        </p>
      ) : null}
    </div>
  );
}
