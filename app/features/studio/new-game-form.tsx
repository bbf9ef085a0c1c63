import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';

/** A new draft game: its address and its name; the details page follows. */
export function NewGameForm() {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const navigate = useNavigate();
  const [slug, setSlug] = useState('');
  const [titleEn, setTitleEn] = useState('');
  const [titleZh, setTitleZh] = useState('');
  const { errors, alert, fail, check, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    check({});
    run('create', async () => {
      try {
        const i18n = { en: { title: titleEn }, ...(titleZh.trim() ? { 'zh-CN': { title: titleZh } } : {}) };
        const { data } = await api.post('/studio/games/', { slug, i18n });
        toast.add({ title: t('games.new.created'), color: 'success' });
        await navigate(localePath(locale, `/studio/games/${data.id}`));
      } catch (failure) {
        fail(failure, ['slug', 'i18n.en.title', 'i18n.zh-CN.title']);
      }
    });
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="relative max-w-lg space-y-4" data-testid="studio-new-game-form">
      <TextField
        label={t('games.new.slug')}
        name="slug"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        value={slug}
        onChange={(e) => setSlug(e.target.value.toLowerCase())}
        hint={t('games.new.slugHint', { slug: slug || '…' })}
        error={errors.slug}
      />
      <TextField label={t('games.new.titleEn')} name="titleEn" value={titleEn} onChange={(e) => setTitleEn(e.target.value)} error={errors['i18n.en.title']} />
      <TextField
        label={t('games.new.titleZh')}
        name="titleZh"
        lang="zh-CN"
        value={titleZh}
        onChange={(e) => setTitleZh(e.target.value)}
        error={errors['i18n.zh-CN.title']}
      />
      <FormAlert message={alert} />
      <Button type="submit" disabled={pending !== null}>
        {t('games.new.create')}
      </Button>
      <LoadingOverlay show={pending !== null} />
    </form>
  );
}
