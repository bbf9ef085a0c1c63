import { UserRound } from 'lucide-react';
import { useState } from 'react';
import { cn } from './cn.ts';

/**
 * A round picture over an icon: the icon shows when there is no picture or it fails to load.
 * The <img> is in the server's HTML, so a signed-in page paints its avatar without waiting for
 * scripts (a picture that loads only after hydration would flicker in). `className` gives its
 * size (`size-8` when there is none).
 */
export function Avatar({ src, className = 'size-8' }: { src?: string | null; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <span className={cn('relative inline-flex shrink-0 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-700', className)}>
      <span className="flex size-full items-center justify-center text-zinc-600 dark:text-zinc-300">
        <UserRound className="size-[60%]" aria-hidden />
      </span>
      {src && failed !== src ? (
        <img src={src} alt="" decoding="async" onError={() => setFailed(src)} className="absolute inset-0 size-full object-cover" />
      ) : null}
    </span>
  );
}
