import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';

/**
 * Prose styles for rendered Markdown: a comfortable measure and rhythm, and a typographic scale
 * for headings, lists, quotes, code and tables, in light and dark.
 */
const PROSE = [
  'max-w-[65ch] text-base leading-7 text-zinc-800 sm:text-[1.0625rem] sm:leading-8 dark:text-zinc-200',
  '[&>*+*]:mt-5',
  '[&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:leading-tight [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-zinc-900 dark:[&_h2]:text-zinc-50',
  '[&_h3]:mt-8 [&_h3]:text-xl [&_h3]:leading-snug [&_h3]:font-semibold [&_h3]:text-zinc-900 dark:[&_h3]:text-zinc-50',
  '[&_h4]:mt-6 [&_h4]:font-semibold [&_h4]:text-zinc-900 dark:[&_h4]:text-zinc-50',
  '[&_a]:font-medium [&_a]:text-green-700 [&_a]:underline [&_a]:decoration-green-700/40 [&_a]:underline-offset-2 hover:[&_a]:decoration-green-700',
  'dark:[&_a]:text-green-400 dark:[&_a]:decoration-green-400/40 dark:hover:[&_a]:decoration-green-400',
  '[&_a]:rounded-sm [&_a:focus-visible]:outline-2 [&_a:focus-visible]:outline-offset-2 [&_a:focus-visible]:outline-green-600',
  '[&_strong]:font-semibold [&_strong]:text-zinc-900 dark:[&_strong]:text-zinc-50',
  '[&_ul]:list-disc [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:pl-6 [&_li]:pl-1 [&_li+li]:mt-2 [&_li]:marker:text-zinc-400 dark:[&_li]:marker:text-zinc-500',
  '[&_blockquote]:border-l-4 [&_blockquote]:border-green-600 [&_blockquote]:pl-5 [&_blockquote]:text-zinc-700 [&_blockquote]:italic dark:[&_blockquote]:border-green-500 dark:[&_blockquote]:text-zinc-300',
  '[&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-xl [&_img]:bg-zinc-100 dark:[&_img]:bg-zinc-800',
  '[&_figcaption]:mt-2 [&_figcaption]:text-sm [&_figcaption]:text-zinc-600 dark:[&_figcaption]:text-zinc-400',
  '[&_code]:rounded [&_code]:bg-zinc-100 [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.9em] dark:[&_code]:bg-zinc-800',
  '[&_pre]:overflow-x-auto [&_pre]:rounded-xl [&_pre]:bg-zinc-900 [&_pre]:p-4 [&_pre]:text-sm [&_pre]:leading-6 [&_pre]:text-zinc-100 dark:[&_pre]:bg-zinc-900',
  '[&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_pre_code]:text-inherit',
  // Wide tables scroll sideways instead of widening the page at 320 px.
  '[&_table]:block [&_table]:max-w-full [&_table]:overflow-x-auto [&_table]:border-collapse [&_table]:text-sm',
  '[&_th]:border-b-2 [&_th]:border-zinc-300 [&_th]:py-2 [&_th]:pr-4 [&_th]:text-left [&_th]:font-semibold dark:[&_th]:border-zinc-700',
  '[&_td]:border-b [&_td]:border-zinc-200 [&_td]:py-2 [&_td]:pr-4 [&_td]:align-top dark:[&_td]:border-zinc-800',
  '[&_hr]:my-10 [&_hr]:border-zinc-200 dark:[&_hr]:border-zinc-800',
].join(' ');

/**
 * The sanitised HTML of an article (rendered and cleaned on the server at import). Links to
 * the portal's own pages navigate inside the app instead of reloading the page.
 */
export function ArticleBody({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest('a');
      const href = anchor?.getAttribute('href');
      if (!anchor || !href || anchor.target === '_blank' || !href.startsWith('/') || href.startsWith('//')) return;
      // Files (feeds, images, games) are not pages of the app.
      if (/^\/(?:uploads|games|feeds|serve)\/|\.[a-z0-9]+$/i.test(href)) return;
      event.preventDefault();
      void navigate(href);
    };
    element.addEventListener('click', onClick);
    return () => element.removeEventListener('click', onClick);
  }, [navigate]);

  return <div ref={ref} className={PROSE} data-testid="article-body" dangerouslySetInnerHTML={{ __html: html }} />;
}
