import { Search, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Form, useLocation, useNavigate } from 'react-router';
import type { AppSummary } from '#common/api/catalogue.schema.ts';
import { localePath } from '#common/locales.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';

/** Quiet time after the last key press before suggestions are asked for. */
export const SEARCH_DEBOUNCE_MS = 250;
const SUGGESTIONS = 6;

type Status = 'idle' | 'loading' | 'ready' | 'failed';

/**
 * The header's search box: a form for /search that works without scripts, and with them a
 * combobox that suggests games as you type (debounced; a new key press cancels the request in
 * flight). Below 768 px it is a button that opens the box over the header.
 */
export function HeaderSearch() {
  const { t } = useTranslation('catalogue');
  const locale = useLocale();
  const navigate = useNavigate();
  const location = useLocation();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  // The answer for one query; while the typed text differs from it, the suggestions are loading.
  const [answer, setAnswer] = useState<{ query: string; status: 'ready' | 'failed'; items: AppSummary[] } | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [expanded, setExpanded] = useState(false);

  const trimmed = query.trim();
  const status: Status = !trimmed ? 'idle' : answer?.query === trimmed ? answer.status : 'loading';
  const results = status === 'ready' ? answer!.items : [];
  const searchHref = localePath(locale, `/search?q=${encodeURIComponent(trimmed)}`);
  // Suggestions, then "see all results" as the last option.
  const options =
    status === 'ready' && results.length > 0
      ? [...results.map((app) => ({ key: `app-${app.id}`, href: localePath(locale, `/app/${app.slug}`), app })), { key: 'all', href: searchHref, app: null }]
      : [];

  useEffect(() => {
    if (!trimmed) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api
        .get('/app/list/', { query: { q: trimmed, limit: SUGGESTIONS }, signal: controller.signal })
        .then((response) => {
          setAnswer({ query: trimmed, status: 'ready', items: response.data.items });
          setActive(-1);
        })
        .catch(() => {
          if (!controller.signal.aborted) setAnswer({ query: trimmed, status: 'failed', items: [] });
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [trimmed]);

  // Arriving on another page closes the suggestions and the mobile box.
  const [page, setPage] = useState(location.key);
  if (page !== location.key) {
    setPage(location.key);
    setOpen(false);
    setExpanded(false);
  }

  useEffect(() => {
    if (expanded) inputRef.current?.focus();
  }, [expanded]);

  const go = (href: string) => {
    setOpen(false);
    setExpanded(false);
    void navigate(href);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (options.length === 0) return;
      event.preventDefault();
      setOpen(true);
      // -1 is the input itself: the keys cycle through it and every option.
      if (event.key === 'ArrowDown') setActive((current) => (current + 1 >= options.length ? -1 : current + 1));
      else setActive((current) => (current - 1 < -1 ? options.length - 1 : current - 1));
    } else if (event.key === 'Escape') {
      if (open && trimmed) setOpen(false);
      else if (expanded) setExpanded(false);
      else setQuery('');
    } else if (event.key === 'Enter' && open && active >= 0 && options[active]) {
      event.preventDefault();
      go(options[active].href);
    }
  };

  const showList = open && trimmed !== '' && status !== 'idle';
  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const announcement =
    status === 'loading'
      ? t('search.searching')
      : status === 'failed'
        ? t('search.failed')
        : status === 'ready'
          ? results.length === 0
            ? t('search.noResults', { q: trimmed })
            : t('search.resultCount', { count: results.length })
          : '';

  return (
    <div className="flex min-w-0 justify-end md:relative md:flex-1" data-testid="header-search">
      <Button variant="ghost" size="icon" className="md:hidden" aria-label={t('search.label')} aria-expanded={expanded} onClick={() => setExpanded(true)}>
        <Search />
      </Button>
      <div
        className={cn(
          expanded ? 'absolute inset-x-0 top-0 z-50 flex h-14 items-center gap-2 bg-white px-4 dark:bg-zinc-950' : 'hidden',
          'md:static md:flex md:h-auto md:w-full md:max-w-xs md:bg-transparent md:px-0 lg:max-w-sm',
        )}
      >
        <search className="relative min-w-0 flex-1">
          <Form method="get" action={localePath(locale, '/search')} onSubmit={() => setOpen(false)}>
            <label htmlFor={`${id}-input`} className="sr-only">
              {t('search.label')}
            </label>
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-500" />
            <input
              ref={inputRef}
              id={`${id}-input`}
              name="q"
              // type=text, not search: ARIA in HTML allows role=combobox (and so aria-expanded) only on a text input without a list.
              type="text"
              role="combobox"
              autoComplete="off"
              enterKeyHint="search"
              maxLength={100}
              placeholder={t('search.placeholder')}
              value={query}
              onChange={(event) => {
                setQuery(event.target.value);
                setOpen(true);
                setActive(-1);
              }}
              onFocus={() => setOpen(true)}
              onBlur={() => setOpen(false)}
              onKeyDown={onKeyDown}
              aria-expanded={showList}
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
              className={cn(
                'h-10 w-full rounded-lg border border-zinc-300 bg-zinc-50 pr-3 pl-9 text-sm text-zinc-900 placeholder:text-zinc-500',
                'dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400',
                focusRing,
              )}
              data-testid="header-search-input"
            />
            <div
              hidden={!showList}
              className="absolute inset-x-0 top-full z-50 mt-2 max-h-[70vh] overflow-y-auto rounded-xl border border-zinc-200 bg-white p-1 shadow-lg md:right-auto md:left-0 md:w-80 dark:border-zinc-800 dark:bg-zinc-900"
              data-testid="search-suggestions"
            >
              {/* oxlint-disable-next-line jsx-a11y/prefer-tag-over-role, jsx-a11y/no-noninteractive-element-to-interactive-role -- a combobox popup: <datalist> can neither show thumbnails nor be styled */}
              <ul id={listId} role="listbox" aria-label={t('search.suggestions')}>
                {options.map((option, index) => (
                  <li
                    key={option.key}
                    id={optionId(index)}
                    // oxlint-disable-next-line jsx-a11y/prefer-tag-over-role, jsx-a11y/no-noninteractive-element-to-interactive-role -- options of the listbox above
                    role="option"
                    aria-selected={index === active}
                    // mousedown, not click: the input must not lose focus (which closes the list) first.
                    onMouseDown={(event) => {
                      event.preventDefault();
                      go(option.href);
                    }}
                    onMouseEnter={() => setActive(index)}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-lg px-2 py-1.5 text-sm',
                      index === active ? 'bg-zinc-100 dark:bg-zinc-800' : '',
                      option.app ? '' : 'font-medium text-green-700 dark:text-green-400',
                    )}
                  >
                    {option.app ? (
                      <>
                        <img
                          src={option.app.thumbnail}
                          alt=""
                          width={48}
                          height={36}
                          className="h-9 w-12 shrink-0 rounded-md bg-zinc-100 object-cover dark:bg-zinc-800"
                        />
                        <span className="min-w-0 truncate">{option.app.title}</span>
                      </>
                    ) : (
                      <span className="truncate">{t('search.seeAll', { q: trimmed })}</span>
                    )}
                  </li>
                ))}
              </ul>
              {options.length === 0 && <p className="px-3 py-2 text-sm text-zinc-500 dark:text-zinc-400">{announcement}</p>}
            </div>
          </Form>
        </search>
        <output className="sr-only" aria-live="polite">
          {open ? announcement : ''}
        </output>
        {expanded && (
          <Button variant="ghost" size="icon" className="md:hidden" aria-label={t('search.close')} onClick={() => setExpanded(false)}>
            <X />
          </Button>
        )}
      </div>
    </div>
  );
}
