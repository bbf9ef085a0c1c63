import { ImageUp } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { AVATAR_FIELD, AVATAR_MAX_BYTES } from '#common/api/accounts.schema.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { Button, buttonVariants } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { fieldErrorsOf, messageOf } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay } from '../../ui/form-field.tsx';
import { useProfile } from './profile-context.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';

/** The image types the server accepts; it checks the bytes, this only spares an upload that cannot work. */
const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
const MEGABYTES = AVATAR_MAX_BYTES / (1024 * 1024);

/** Uploads a new avatar (POST /member/avatar/, multipart) with a preview of the chosen image. */
export function AvatarForm() {
  const { t } = useTranslation('accounts');
  const { profile, apply } = useProfile();
  const [chosen, setChosen] = useState<{ file: File; preview: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { pending, run } = usePendingAction();
  const inputId = useId();
  const busy = pending !== null;

  // The preview is a data: URL: the page's content policy allows data: images, while a blob: URL
  // is refused wherever something fetches it (connect-src).
  const latest = useRef<File | null>(null);
  const choose = (next: File | null) => {
    latest.current = next;
    setChosen(null);
    if (!next) return;
    const reader = new FileReader();
    reader.addEventListener('load', () => {
      if (latest.current === next && typeof reader.result === 'string') setChosen({ file: next, preview: reader.result });
    });
    reader.readAsDataURL(next);
  };
  const file = chosen?.file ?? null;
  const preview = chosen?.preview ?? null;

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    setError(null);
    if (picked && !(AVATAR_TYPES as readonly string[]).includes(picked.type)) {
      setError(t('avatar.type'));
      choose(null);
    } else if (picked && picked.size > AVATAR_MAX_BYTES) {
      setError(t('avatar.tooLarge', { megabytes: MEGABYTES }));
      choose(null);
    } else {
      choose(picked);
    }
    // The same file may be chosen again after a failed upload.
    event.target.value = '';
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setError(t('avatar.required'));
      return;
    }
    run('upload', async () => {
      const form = new FormData();
      form.append(AVATAR_FIELD, file);
      try {
        const { data } = await api.post('/member/avatar/', form);
        apply(data);
        choose(null);
        toast.add({ title: t('profile.avatarSaved'), color: 'success' });
      } catch (failure) {
        setError(fieldErrorsOf(failure)[AVATAR_FIELD] ?? messageOf(failure, t('errors:generic')));
      }
    });
  };

  return (
    <form onSubmit={submit} noValidate className="relative space-y-5" data-testid="profile-avatar-form">
      <div className="flex items-center gap-5">
        <Avatar src={preview ?? profile.avatarSizes?.[256] ?? profile.avatar} className="size-24 sm:size-28" />
        <div className="min-w-0 space-y-2">
          <p className="text-sm font-medium">{preview ? t('profile.chosen', { name: file?.name ?? '' }) : t('profile.current')}</p>
          <p id={`${inputId}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
            {t('profile.avatarHint', { megabytes: MEGABYTES })}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        {/* The file input stays the focusable control; its label is styled as the button. */}
        <input
          id={inputId}
          type="file"
          name={AVATAR_FIELD}
          accept={AVATAR_TYPES.join(',')}
          onChange={pick}
          disabled={busy}
          aria-describedby={`${inputId}-hint`}
          aria-invalid={error ? true : undefined}
          className="peer sr-only"
          data-testid="avatar-input"
        />
        <label
          htmlFor={inputId}
          className={cn(
            buttonVariants({ variant: 'secondary' }),
            'peer-focus-visible:outline-solid peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-green-600 dark:peer-focus-visible:outline-green-400',
            busy && 'pointer-events-none opacity-50',
          )}
        >
          <ImageUp aria-hidden />
          {t('profile.choose')}
        </label>
        <Button type="submit" disabled={busy || !file} data-testid="avatar-upload">
          {t('profile.upload')}
        </Button>
      </div>
      <FormAlert message={error} />
      <LoadingOverlay show={busy} />
    </form>
  );
}
