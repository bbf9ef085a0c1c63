import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ConsolePage } from '#common/api/console-content.schema.ts';
import { type Locale, localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { fieldErrorsOf, messageOf } from '../../ui/form-errors.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { FIELD_CLASS, Field, LocalisedTexts, PublishAtField, PublishButtons, PublishStatus, fromLocalInput, toLocalInput, useNow } from './content-editor.tsx';

interface Text {
  title: string;
  description: string;
  markdown: string;
}

const emptyText = (): Text => ({ title: '', description: '', markdown: '' });
const toText = (found: ConsolePage['texts']['en'] | null): Text | null =>
  found ? { title: found.title, description: found.description ?? '', markdown: found.markdown } : null;
const toBody = (text: Text) => ({ title: text.title, description: text.description.trim() || null, markdown: text.markdown });

/**
 * A static page's editor (decision 099): a new page's slug, the publish time as for articles
 * ("Publish now", or a time ahead schedules it), then each language's title, description and
 * Markdown with its preview.
 */
export function PageEditor({ slug }: { slug: string | null }) {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const navigate = useNavigate();
  const [page, setPage] = useState<ConsolePage | null>(null);
  const [newSlug, setNewSlug] = useState('');
  const [publishAt, setPublishAt] = useState(() => toLocalInput(new Date().toISOString()));
  const [texts, setTexts] = useState<Record<Locale, Text | null> | null>(slug === null ? { en: emptyText(), 'zh-CN': null } : null);
  const [tab, setTab] = useState<Locale>('en');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { pending, run } = usePendingAction();
  const [now, refreshNow] = useNow();

  useEffect(() => {
    if (slug === null) return;
    let active = true;
    api.get(`/console/pages/${slug}`).then(
      ({ data }) => {
        if (!active) return;
        setPage(data);
        setPublishAt(toLocalInput(data.publishedAt ?? data.updatedAt));
        setTexts({ en: toText(data.texts.en), 'zh-CN': toText(data.texts['zh-CN']) });
      },
      (failure: unknown) => toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' }),
    );
    return () => {
      active = false;
    };
  }, [slug, t]);

  if (!texts) return null;
  const current = texts[tab];
  const setText = (patch: Partial<Text>) => setTexts((all) => all && { ...all, [tab]: { ...(all[tab] ?? emptyText()), ...patch } });

  const save = (publishNow: boolean) =>
    run(publishNow ? 'publish' : 'save', async () => {
      const body = {
        publishedAt: publishNow ? new Date().toISOString() : fromLocalInput(publishAt),
        texts: { en: toBody(texts.en ?? emptyText()), 'zh-CN': texts['zh-CN'] ? toBody(texts['zh-CN']) : null },
      };
      try {
        const { data } = slug === null ? await api.post('/console/pages/', { ...body, slug: newSlug }) : await api.put(`/console/pages/${slug}`, body);
        setErrors({});
        setPage(data);
        setPublishAt(toLocalInput(data.publishedAt ?? data.updatedAt));
        refreshNow();
        toast.add({ title: t('content.editor.saved'), color: 'success' });
        if (slug === null) void navigate(localePath(locale, `/console/pages/${data.slug}`), { replace: true });
      } catch (failure) {
        setErrors(fieldErrorsOf(failure));
        toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' });
      }
    });

  return (
    <section className="space-y-6" data-testid="page-editor">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold tracking-tight">{slug === null ? t('content.pages.newTitle') : t('content.pages.editTitle', { slug })}</h2>
        <a href={localePath(locale, '/console/pages')} className="text-sm text-green-700 hover:underline dark:text-green-400">
          {t('content.editor.back')}
        </a>
      </div>
      {page ? <PublishStatus publishedAt={page.publishedAt} now={now} path={page.path} testId="page" /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {slug === null ? (
          <Field label={t('content.editor.slug')} error={errors.slug}>
            {(id) => <input id={id} value={newSlug} onChange={(e) => setNewSlug(e.target.value)} className={FIELD_CLASS} data-testid="page-slug" />}
          </Field>
        ) : null}
        <PublishAtField value={publishAt} onChange={setPublishAt} error={errors.publishedAt} testId="page-publish-at" />
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
                    onChange={(e) => setText({ title: e.target.value })}
                    className={FIELD_CLASS}
                    data-testid={`page-title-${tab}`}
                  />
                )}
              </Field>
              <Field label={t('content.editor.description')} error={errors[`texts.${tab}.description`]}>
                {(id) => (
                  <input id={id} lang={tab} value={current.description} onChange={(e) => setText({ description: e.target.value })} className={FIELD_CLASS} />
                )}
              </Field>
            </>
          ) : null
        }
        markdown={current?.markdown ?? ''}
        onMarkdown={(markdown) => setText({ markdown })}
        markdownError={errors[`texts.${tab}.markdown`]}
        onRemove={() => setTexts((all) => all && { ...all, [tab]: null })}
        onAdd={() => setText({})}
        addTestId={`page-add-${tab}`}
      />
      <PublishButtons publishAt={publishAt} now={now} pending={pending !== null} onSave={save} testId="page" />
    </section>
  );
}
