import { ImagePlus } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { LOCALES, type Locale, localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { messageOf } from '../../ui/form-errors.ts';
import { ArticleBody } from '../articles/article-body.tsx';

export const FIELD_CLASS =
  'w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

/** A labelled input or textarea of the editor. */
export function Field({ label, children, error }: { label: string; children: (id: string) => ReactNode; error?: string | undefined }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      {children(id)}
      {error ? (
        <p className="text-sm text-red-700 dark:text-red-400" data-testid="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Uploads one image to the article media store; resolves its public URL, or null after telling why not. */
export async function uploadArticleImage(file: File, failed: string): Promise<string | null> {
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    const { data } = await api.post('/console/articles/media', form);
    return data.url;
  } catch (failure) {
    toast.add({ title: messageOf(failure, failed), color: 'error' });
    return null;
  }
}

/**
 * Markdown with its live preview beside it: the server renders it with the site's own pipeline,
 * so the preview is exactly what readers get, sanitised. Images go to the article media store and
 * are inserted where the cursor is.
 */
export function MarkdownEditor({ value, onChange, locale }: { value: string; onChange: (value: string) => void; locale: Locale }) {
  const { t } = useTranslation('console');
  const [html, setHtml] = useState('');
  const [uploading, setUploading] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    let active = true;
    const timer = setTimeout(() => {
      api.post('/console/markdown/preview', { markdown: value }).then(
        ({ data }) => active && setHtml(data.html),
        () => undefined,
      );
    }, 250);
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [value]);

  const insertImage = async (chosen: File) => {
    setUploading(true);
    const url = await uploadArticleImage(chosen, t('content.errors.notAnImage'));
    setUploading(false);
    if (!url) return;
    const alt = chosen.name.replace(/\.[^.]+$/, '').replace(/[[\]]/g, '');
    const at = area.current?.selectionStart ?? value.length;
    const snippet = `${at > 0 && value[at - 1] !== '\n' ? '\n\n' : ''}![${alt}](${url})\n\n`;
    onChange(value.slice(0, at) + snippet + value.slice(at));
    toast.add({ title: t('content.editor.uploaded'), color: 'success' });
  };

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <label htmlFor={id} className="text-sm font-medium">
            {t('content.editor.body')}
          </label>
          <label
            className={cn(
              'inline-flex cursor-pointer items-center gap-1.5 rounded-lg border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700',
              uploading && 'opacity-60',
            )}
          >
            <ImagePlus className="size-4" aria-hidden />
            {uploading ? t('content.editor.uploading') : t('content.editor.uploadImage')}
            <input
              ref={file}
              type="file"
              accept="image/*"
              className="sr-only"
              data-testid={`markdown-image-${locale}`}
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                e.target.value = '';
                if (chosen) void insertImage(chosen);
              }}
            />
          </label>
        </div>
        <textarea
          id={id}
          ref={area}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          rows={18}
          lang={locale}
          className={cn(FIELD_CLASS, 'font-mono')}
          data-testid={`markdown-${locale}`}
        />
      </div>
      <div className="space-y-2">
        <p className="text-sm font-medium">{t('content.editor.preview')}</p>
        <div className="min-h-40 rounded-xl border border-dashed border-zinc-300 p-4 dark:border-zinc-700" lang={locale} data-testid={`preview-${locale}`}>
          {html ? <ArticleBody html={html} /> : <p className="text-sm text-zinc-500">{t('content.editor.previewEmpty')}</p>}
        </div>
      </div>
    </div>
  );
}

/** Tabs for the texts of each locale (English and Chinese side by side on one page, one at a time). */
export function LocaleTabs({ current, onSelect, children }: { current: Locale; onSelect: (locale: Locale) => void; children: ReactNode }) {
  return (
    <div className="space-y-4">
      <div role="tablist" className="flex gap-2 border-b border-zinc-200 dark:border-zinc-800">
        {LOCALES.map((l) => (
          <button
            key={l.code}
            type="button"
            role="tab"
            aria-selected={current === l.code}
            onClick={() => onSelect(l.code)}
            className={cn(
              '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
              current === l.code
                ? 'border-green-700 text-green-800 dark:border-green-400 dark:text-green-300'
                : 'border-transparent text-zinc-600 dark:text-zinc-400',
            )}
            data-testid={`tab-${l.code}`}
          >
            {l.name}
          </button>
        ))}
      </div>
      <div role="tabpanel">{children}</div>
    </div>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO time to the value of a datetime-local input, in the browser's time zone. */
/**
 * The texts of one language under the language tabs: the editor's own fields, the Markdown body
 * and its error, and removing or adding the Chinese text (`fields` is null while the tab's
 * language has no text).
 */
export function LocalisedTexts({
  tab,
  onSelect,
  fields,
  markdown,
  onMarkdown,
  markdownError,
  onRemove,
  onAdd,
  addTestId,
}: {
  tab: Locale;
  onSelect: (locale: Locale) => void;
  fields: ReactNode | null;
  markdown: string;
  onMarkdown: (markdown: string) => void;
  markdownError: string | undefined;
  onRemove: () => void;
  onAdd: () => void;
  addTestId: string;
}) {
  const { t } = useTranslation('console');
  return (
    <LocaleTabs current={tab} onSelect={onSelect}>
      {fields !== null ? (
        <div className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">{fields}</div>
          <MarkdownEditor value={markdown} onChange={onMarkdown} locale={tab} />
          {markdownError ? <p className="text-sm text-red-700 dark:text-red-400">{markdownError}</p> : null}
          {tab !== 'en' ? (
            <Button variant="ghost" size="sm" onClick={onRemove}>
              {t('content.editor.removeChinese')}
            </Button>
          ) : null}
        </div>
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('content.editor.noChineseText')}</p>
          <Button variant="secondary" size="sm" onClick={onAdd} data-testid={addTestId}>
            {t('content.editor.addChinese')}
          </Button>
        </div>
      )}
    </LocaleTabs>
  );
}

export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value (the browser's time zone) as ISO UTC. */
export function fromLocalInput(value: string): string {
  return new Date(value).toISOString();
}

/** The clock the publish status and buttons speak of, kept fresh while an editor is open. */
export function useNow(): [number, () => void] {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return [now, () => setNow(Date.now())];
}

/** The publish time of an article or a page (the browser's time zone); a time ahead schedules it. */
export function PublishAtField({
  value,
  onChange,
  error,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation('console');
  return (
    <Field label={t('content.editor.publishAt')} error={error}>
      {(id) => <input id={id} type="datetime-local" value={value} onChange={(e) => onChange(e.target.value)} className={FIELD_CLASS} data-testid={testId} />}
    </Field>
  );
}

/** Whether readers see a saved article or page yet, with the link to it once they do. */
export function PublishStatus({ publishedAt, now, path, testId }: { publishedAt: string | null; now: number; path: string; testId: string }) {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const scheduled = publishedAt !== null && Date.parse(publishedAt) > now;
  return (
    <p className="rounded-lg bg-zinc-100 px-3 py-2 text-sm dark:bg-zinc-800" data-testid={`${testId}-status`}>
      {scheduled ? t('content.editor.scheduledFor', { time: new Date(publishedAt).toLocaleString(locale) }) : t('content.editor.isPublished')}{' '}
      {!scheduled ? (
        <a href={localePath(locale, path)} className="font-medium text-green-700 hover:underline dark:text-green-400" data-testid={`${testId}-view`}>
          {t('content.editor.view')}
        </a>
      ) : null}
    </p>
  );
}

/** Save (or Schedule, when the time is ahead) and Publish now, which saves with the time set to now. */
export function PublishButtons({
  publishAt,
  now,
  pending,
  onSave,
  testId,
}: {
  publishAt: string;
  now: number;
  pending: boolean;
  onSave: (publishNow: boolean) => void;
  testId: string;
}) {
  const { t } = useTranslation('console');
  const future = new Date(publishAt).getTime() > now;
  return (
    <div className="flex flex-wrap gap-3">
      <Button onClick={() => onSave(false)} disabled={pending} data-testid={`${testId}-save`}>
        {future ? t('content.editor.schedule') : t('content.editor.save')}
      </Button>
      <Button variant="secondary" onClick={() => onSave(true)} disabled={pending} data-testid={`${testId}-publish-now`}>
        {t('content.editor.publishNow')}
      </Button>
    </div>
  );
}
