import { useEffect, useState } from 'react';
import { type Locale, localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { fieldErrorsOf, messageOf } from '../accounts/form-errors.ts';
import { usePendingAction } from '../accounts/use-pending-action.ts';
import { FIELD_CLASS, Field, LocaleTabs, MarkdownEditor } from './content-editor.tsx';

interface Text {
  title: string;
  description: string;
  markdown: string;
}

/** A static page's editor: each language's title, description and Markdown with its preview. */
export function PageEditor({ slug }: { slug: string }) {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const [texts, setTexts] = useState<Record<Locale, Text | null> | null>(null);
  const [tab, setTab] = useState<Locale>('en');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { pending, run } = usePendingAction();

  useEffect(() => {
    let active = true;
    api.get(`/console/pages/${slug}`).then(
      ({ data }) => {
        if (!active) return;
        const text = (found: (typeof data.texts)['en'] | null) =>
          found ? { title: found.title, description: found.description ?? '', markdown: found.markdown } : null;
        setTexts({ en: text(data.texts.en), 'zh-CN': text(data.texts['zh-CN']) });
      },
      (failure: unknown) => toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' }),
    );
    return () => {
      active = false;
    };
  }, [slug, t]);

  if (!texts) return null;
  const current = texts[tab];
  const setText = (patch: Partial<Text>) =>
    setTexts((all) => all && { ...all, [tab]: { ...(all[tab] ?? { title: '', description: '', markdown: '' }), ...patch } });
  const body = (text: Text) => ({ title: text.title, description: text.description.trim() || null, markdown: text.markdown });

  const save = () =>
    run('save', async () => {
      try {
        await api.put(`/console/pages/${slug}`, { texts: { en: body(texts.en!), 'zh-CN': texts['zh-CN'] ? body(texts['zh-CN']) : null } });
        setErrors({});
        toast.add({ title: t('content.editor.saved'), color: 'success' });
      } catch (failure) {
        setErrors(fieldErrorsOf(failure));
        toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' });
      }
    });

  return (
    <section className="space-y-6" data-testid="page-editor">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold tracking-tight">{t('content.pages.editTitle', { slug })}</h2>
        <a href={localePath(locale, `/${slug}`)} className="text-sm text-green-700 hover:underline dark:text-green-400">
          {t('content.pages.view')}
        </a>
      </div>
      <LocaleTabs current={tab} onSelect={setTab}>
        {current ? (
          <div className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={t('content.editor.title')} error={errors[`texts.${tab}.title`]}>
                {(id) => <input id={id} lang={tab} value={current.title} onChange={(e) => setText({ title: e.target.value })} className={FIELD_CLASS} />}
              </Field>
              <Field label={t('content.editor.description')} error={errors[`texts.${tab}.description`]}>
                {(id) => (
                  <input id={id} lang={tab} value={current.description} onChange={(e) => setText({ description: e.target.value })} className={FIELD_CLASS} />
                )}
              </Field>
            </div>
            <MarkdownEditor value={current.markdown} onChange={(markdown) => setText({ markdown })} locale={tab} />
            {tab !== 'en' ? (
              <Button variant="ghost" size="sm" onClick={() => setTexts((all) => all && { ...all, [tab]: null })}>
                {t('content.editor.removeChinese')}
              </Button>
            ) : null}
          </div>
        ) : (
          <div className="space-y-3">
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('content.editor.noChineseText')}</p>
            <Button variant="secondary" size="sm" onClick={() => setText({})}>
              {t('content.editor.addChinese')}
            </Button>
          </div>
        )}
      </LocaleTabs>
      <Button onClick={save} disabled={pending !== null} data-testid="page-save">
        {t('content.editor.save')}
      </Button>
    </section>
  );
}
