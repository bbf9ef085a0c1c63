import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ConsoleArticle } from '#common/api/console-content.schema.ts';
import { type Locale, localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { fieldErrorsOf, messageOf } from '../../ui/form-errors.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import {
  FIELD_CLASS,
  Field,
  LocalisedTexts,
  PublishAtField,
  PublishButtons,
  PublishStatus,
  fromLocalInput,
  toLocalInput,
  uploadArticleImage,
  useNow,
} from './content-editor.tsx';

interface Text {
  title: string;
  summary: string;
  markdown: string;
  tags: string;
  author: string;
}

const emptyText = (): Text => ({ title: '', summary: '', markdown: '', tags: '', author: '' });
const toText = (text: ConsoleArticle['texts']['en'] | null): Text | null =>
  text ? { title: text.title, summary: text.summary, markdown: text.markdown, tags: text.tags.join(', '), author: text.author ?? '' } : null;
const toBody = (text: Text) => ({
  title: text.title,
  summary: text.summary,
  markdown: text.markdown,
  tags: text.tags
    .split(/[,，]/)
    .map((tag) => tag.trim())
    .filter(Boolean),
  author: text.author.trim() || null,
});

/**
 * An article's editor (decision 099): column, slug, cover and publish time, then each language's
 * texts in a tab with the Markdown beside its preview. "Publish now" sets the time to now; a time
 * ahead schedules it.
 */
export function ArticleEditor({ articleId }: { articleId: number | null }) {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const navigate = useNavigate();
  const [columns, setColumns] = useState<Array<{ slug: string; title: string }>>([]);
  const [article, setArticle] = useState<ConsoleArticle | null>(null);
  const [column, setColumn] = useState('');
  const [slug, setSlug] = useState('');
  const [cover, setCover] = useState<string | null>(null);
  const [publishAt, setPublishAt] = useState(() => toLocalInput(new Date(Date.now() + 24 * 3600_000).toISOString()));
  const [texts, setTexts] = useState<Record<Locale, Text | null>>({ en: emptyText(), 'zh-CN': null });
  const [tab, setTab] = useState<Locale>('en');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { pending, run } = usePendingAction();
  const [now, refreshNow] = useNow();

  useEffect(() => {
    let active = true;
    void (async () => {
      try {
        const { data } = await api.get('/console/articles/');
        if (!active) return;
        setColumns(data.columns);
        if (articleId === null) setColumn((current) => current || (data.columns[0]?.slug ?? ''));
        if (articleId !== null) {
          const { data: found } = await api.get(`/console/articles/${articleId}`);
          if (!active) return;
          setArticle(found);
          setColumn(found.column);
          setSlug(found.slug);
          setCover(found.cover);
          setPublishAt(toLocalInput(found.publishedAt));
          setTexts({ en: toText(found.texts.en), 'zh-CN': toText(found.texts['zh-CN']) });
        }
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' });
      }
    })();
    return () => {
      active = false;
    };
  }, [articleId, t]);

  const setText = (which: Locale, patch: Partial<Text>) => setTexts((current) => ({ ...current, [which]: { ...(current[which] ?? emptyText()), ...patch } }));

  const save = (publishNow: boolean) =>
    run(publishNow ? 'publish' : 'save', async () => {
      const when = publishNow ? new Date().toISOString() : fromLocalInput(publishAt);
      const body = {
        column,
        slug,
        cover,
        publishedAt: when,
        texts: { en: toBody(texts.en ?? emptyText()), 'zh-CN': texts['zh-CN'] ? toBody(texts['zh-CN']) : null },
      };
      try {
        const { data } = articleId === null ? await api.post('/console/articles/', body) : await api.put(`/console/articles/${articleId}`, body);
        setErrors({});
        setArticle(data);
        setPublishAt(toLocalInput(data.publishedAt));
        refreshNow();
        toast.add({ title: t('content.editor.saved'), color: 'success' });
        if (articleId === null) void navigate(localePath(locale, `/console/articles/${data.id}`), { replace: true });
      } catch (failure) {
        setErrors(fieldErrorsOf(failure));
        toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' });
      }
    });

  const current = texts[tab];

  return (
    <section className="space-y-6" data-testid="article-editor">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold tracking-tight">{articleId === null ? t('content.editor.newTitle') : t('content.editor.editTitle')}</h2>
        <a href={localePath(locale, '/console/articles')} className="text-sm text-green-700 hover:underline dark:text-green-400">
          {t('content.editor.back')}
        </a>
      </div>
      {article ? <PublishStatus publishedAt={article.publishedAt} now={now} path={article.path} testId="article" /> : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={t('content.editor.column')} error={errors.column}>
          {(id) => (
            <select id={id} value={column} onChange={(e) => setColumn(e.target.value)} className={FIELD_CLASS} data-testid="article-column">
              {columns.map((c) => (
                <option key={c.slug} value={c.slug}>
                  {c.title}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('content.editor.slug')} error={errors.slug}>
          {(id) => <input id={id} value={slug} onChange={(e) => setSlug(e.target.value)} className={FIELD_CLASS} data-testid="article-slug" />}
        </Field>
        <PublishAtField value={publishAt} onChange={setPublishAt} error={errors.publishedAt} testId="article-publish-at" />
        <Field label={t('content.editor.cover')} error={errors.cover}>
          {(id) => (
            <div className="flex items-center gap-2">
              {cover ? (
                <img src={cover} alt="" className="h-10 w-16 rounded object-cover" />
              ) : (
                <span className="text-sm text-zinc-500">{t('content.editor.noCover')}</span>
              )}
              <input
                id={id}
                type="file"
                accept="image/*"
                className="w-full text-sm"
                aria-label={t('content.editor.uploadCover')}
                data-testid="article-cover"
                onChange={async (e) => {
                  const chosen = e.target.files?.[0];
                  if (!chosen) return;
                  const url = await uploadArticleImage(chosen, t('content.errors.notAnImage'));
                  if (url) setCover(url);
                }}
              />
            </div>
          )}
        </Field>
      </div>

      <LocalisedTexts
        tab={tab}
        onSelect={setTab}
        fields={
          current ? (
            <>
              <Field label={t('content.editor.title')} error={errors[`texts.${tab}.title`]}>
                {(id) => (
                  <input
                    id={id}
                    lang={tab}
                    value={current.title}
                    onChange={(e) => setText(tab, { title: e.target.value })}
                    className={FIELD_CLASS}
                    data-testid={`title-${tab}`}
                  />
                )}
              </Field>
              <Field label={t('content.editor.author')} error={errors[`texts.${tab}.author`]}>
                {(id) => <input id={id} lang={tab} value={current.author} onChange={(e) => setText(tab, { author: e.target.value })} className={FIELD_CLASS} />}
              </Field>
              <Field label={t('content.editor.summary')} error={errors[`texts.${tab}.summary`]}>
                {(id) => (
                  <input
                    id={id}
                    lang={tab}
                    value={current.summary}
                    onChange={(e) => setText(tab, { summary: e.target.value })}
                    className={FIELD_CLASS}
                    data-testid={`summary-${tab}`}
                  />
                )}
              </Field>
              <Field label={t('content.editor.tags')} error={errors[`texts.${tab}.tags`]}>
                {(id) => <input id={id} lang={tab} value={current.tags} onChange={(e) => setText(tab, { tags: e.target.value })} className={FIELD_CLASS} />}
              </Field>
            </>
          ) : null
        }
        markdown={current?.markdown ?? ''}
        onMarkdown={(markdown) => setText(tab, { markdown })}
        markdownError={errors[`texts.${tab}.markdown`]}
        onRemove={() => setTexts((all) => ({ ...all, [tab]: null }))}
        onAdd={() => setText(tab, {})}
        addTestId={`add-${tab}`}
      />

      <PublishButtons publishAt={publishAt} now={now} pending={pending !== null} onSave={save} testId="article" />
    </section>
  );
}
