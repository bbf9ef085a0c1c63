import { Upload as UploadIcon } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Upload } from 'tus-js-client';
import type { Build, BuildProblem } from '#common/api/studio-builds.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { api, browserApiHeaders } from '../../lib/api-client.ts';
import { Button } from '../../ui/button.tsx';

interface Envelope {
  error?: string;
  message?: string;
  data?: unknown;
}

function parse(text: string | undefined): Envelope | null {
  try {
    return text ? (JSON.parse(text) as Envelope) : null;
  } catch {
    return null;
  }
}

/**
 * A build's zip sent with the tus protocol (decision 097): in pieces, with a progress bar, resumed
 * from where it stopped after a dropped connection (automatically, or with the button). The
 * server's answer is the new build, or every problem of the zip at once.
 */
export function BuildUpload({ appId, onUploaded }: { appId: number; onUploaded: (build: Build) => void }) {
  const { t } = useTranslation('studio');
  const inputId = useId();
  const file = useRef<HTMLInputElement>(null);
  const upload = useRef<Upload | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [problems, setProblems] = useState<BuildProblem[]>([]);
  const [done, setDone] = useState<string | null>(null);
  const [resumable, setResumable] = useState(false);
  const busy = percent !== null && failure === null;

  async function start(event: FormEvent) {
    event.preventDefault();
    const chosen = file.current?.files?.[0];
    if (!chosen) return;
    setFailure(null);
    setProblems([]);
    setDone(null);
    setResumable(false);
    setPercent(0);
    // The upload carries the XSRF token the API checks: make sure the page has one.
    if (!browserApiHeaders()['X-XSRF-TOKEN']) await api.request('GET', '/csrf').catch(() => undefined);
    const next = new Upload(chosen, {
      endpoint: `/serve/api/studio/games/${appId}/uploads`,
      headers: browserApiHeaders(),
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      metadata: { filename: chosen.name },
      // The same file again goes on from where the last try stopped.
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => setPercent(total > 0 ? Math.floor((sent / total) * 100) : 0),
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        return status === 0 || status >= 500 || status === 409 || status === 423;
      },
      onSuccess: ({ lastResponse }) => {
        const build = parse(lastResponse.getBody())?.data as Build | undefined;
        setPercent(null);
        upload.current = null;
        if (build) {
          setDone(t('builds.upload.done', { version: build.version }));
          onUploaded(build);
        }
        if (file.current) file.current.value = '';
      },
      onError: (error) => {
        const response = 'originalResponse' in error ? error.originalResponse : null;
        const envelope = parse(response?.getBody());
        const found = (envelope?.data as { problems?: BuildProblem[] } | null)?.problems;
        if (found) {
          setProblems(found);
          setPercent(null);
          upload.current = null;
          setFailure(envelope?.message ?? '');
          return;
        }
        // A studio's upload limit (decision 109): the server's message names it; trying again now would not help.
        const limited = envelope?.error === 'upload_limit';
        if (limited) {
          setPercent(null);
          upload.current = null;
        }
        setResumable(!limited);
        setFailure(t('builds.upload.failed', { message: envelope?.message ?? error.message }));
      },
    });
    upload.current = next;
    const previous = await next.findPreviousUploads();
    if (previous[0]) next.resumeFromPreviousUpload(previous[0]);
    next.start();
  }

  function resume() {
    setFailure(null);
    setResumable(false);
    upload.current?.start();
  }

  return (
    <form onSubmit={start} className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" data-testid="build-upload">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={inputId} className="text-sm font-medium">
            {t('builds.upload.choose')}
          </label>
          <input
            id={inputId}
            ref={file}
            type="file"
            name="build"
            accept=".zip,application/zip"
            required
            disabled={busy}
            className="block w-full text-sm file:mr-3 file:rounded-lg file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm dark:file:border-zinc-700 dark:file:bg-zinc-900 dark:file:text-zinc-100"
          />
        </div>
        <Button type="submit" disabled={busy}>
          <UploadIcon aria-hidden />
          {t('builds.upload.start')}
        </Button>
      </div>
      {percent !== null && (
        <div className="space-y-1">
          <progress className="h-2 w-full accent-green-700" max={100} value={percent} aria-label={t('builds.upload.progress', { percent })} />
          <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
            {t('builds.upload.progress', { percent })}
          </p>
        </div>
      )}
      {failure !== null && problems.length === 0 && (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-red-700 dark:text-red-400">
          <span>{failure}</span>
          {resumable && (
            <Button type="button" variant="secondary" size="sm" onClick={resume}>
              {t('builds.upload.resume')}
            </Button>
          )}
        </div>
      )}
      {problems.length > 0 && (
        <div role="alert" className="space-y-1 text-sm text-red-700 dark:text-red-400" data-testid="build-problems">
          <p className="font-medium">{t('common:labelled', { label: t('builds.upload.problemsHeading'), value: failure })}</p>
          <ul className="list-disc space-y-0.5 pl-5 break-words">
            {problems.map((problem, index) => (
              <li key={index}>{problem.message}</li>
            ))}
          </ul>
        </div>
      )}
      {done && <output className="block text-sm text-green-700 dark:text-green-400">{done}</output>}
    </form>
  );
}
