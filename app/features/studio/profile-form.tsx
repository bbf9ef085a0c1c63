import { type FormEvent, useState } from 'react';
import { useRevalidator } from 'react-router';
import { useTranslation } from '../../i18n/translation.tsx';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { DeveloperProfileBodySchema } from '#common/api/studio.schema.ts';
import { schemaError, useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';

/** Creates (no profile yet) or changes the member's studio profile; the server validates and answers per field. */
export function ProfileForm({ profile }: { profile: { studioName: string; contactEmail: string } | null }) {
  const { t } = useTranslation('studio');
  const revalidator = useRevalidator();
  const [studioName, setStudioName] = useState(profile?.studioName ?? '');
  const [contactEmail, setContactEmail] = useState(profile?.contactEmail ?? '');
  const { errors, alert, fail, check, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    const name = schemaError(DeveloperProfileBodySchema.shape.studioName, studioName, t);
    const email = schemaError(DeveloperProfileBodySchema.shape.contactEmail, contactEmail, t);
    if (name) found.studioName = name;
    if (email) found.contactEmail = email;
    if (!check(found)) return;
    run('save', async () => {
      try {
        await api.put('/studio/profile/', { studioName, contactEmail });
        toast.add({ title: t(profile ? 'games.profile.saved' : 'games.profile.created'), color: 'success' });
        await revalidator.revalidate();
      } catch (failure) {
        fail(failure, ['studioName', 'contactEmail']);
      }
    });
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="relative max-w-lg space-y-4" data-testid="studio-profile-form">
      <TextField
        label={t('games.profile.studioName')}
        name="studioName"
        autoComplete="organization"
        value={studioName}
        onChange={(e) => setStudioName(e.target.value)}
        hint={t('games.profile.studioNameHint')}
        error={errors.studioName}
      />
      <TextField
        label={t('games.profile.contactEmail')}
        name="contactEmail"
        type="email"
        inputMode="email"
        autoComplete="email"
        value={contactEmail}
        onChange={(e) => setContactEmail(e.target.value)}
        hint={t('games.profile.contactEmailHint')}
        error={errors.contactEmail}
      />
      <FormAlert message={alert} />
      <Button type="submit" disabled={pending !== null}>
        {t(profile ? 'games.profile.save' : 'games.profile.create')}
      </Button>
      <LoadingOverlay show={pending !== null} />
    </form>
  );
}
