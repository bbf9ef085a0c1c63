import { UserRound } from 'lucide-react';
import { Avatar as AvatarPrimitive } from 'radix-ui';
import { cn } from './cn.ts';

/** A round picture with an icon while it loads or when there is none. */
export function Avatar({ src, className }: { src?: string | null; className?: string }) {
  return (
    <AvatarPrimitive.Root className={cn('relative inline-flex size-8 shrink-0 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-700', className)}>
      {src ? <AvatarPrimitive.Image src={src} alt="" className="size-full object-cover" /> : null}
      <AvatarPrimitive.Fallback className="flex size-full items-center justify-center text-zinc-600 dark:text-zinc-300">
        <UserRound className="size-[60%]" aria-hidden />
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
