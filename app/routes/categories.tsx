import { useTranslation } from '../i18n/translation.tsx';
import { Link } from 'react-router';
import { isValidSlug } from '#common/route-rules.ts';
import { type Locale, localePath } from '#common/locales.ts';
import type { Category } from '#common/api/catalogue.schema.ts';
import { appContext } from '../context.ts';
import { CategoryChips } from '../features/catalogue/category-chips.tsx';
import { CategoryIcon } from '../features/catalogue/category-icon.tsx';
import { listParams, loadPage, PAGE_SIZE } from '../features/catalogue/list-params.ts';
import { PagedAppGrid } from '../features/catalogue/paged-app-grid.tsx';
import { SortTabs } from '../features/catalogue/sort-tabs.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { invalidParameter, pageNotFound } from '../lib/route-errors.ts';
import { pageTitle } from '../lib/meta.ts';
import { focusRing } from '../ui/focus.ts';
import { cn } from '../ui/cn.ts';
import type { Route } from './+types/categories';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (params.slug !== undefined && !isValidSlug(params.slug)) invalidParameter(request);
  const { locale, t } = loaderT(request);
  const url = new URL(request.url);
  const { sort, cursor } = listParams(url);
  const { services } = context.get(appContext);
  const categories = await services.catalogue.categories(locale);
  const category = params.slug === undefined ? null : (categories.find((c) => c.slug === params.slug) ?? pageNotFound(request));
  const page = await loadPage(url, cursor, () =>
    services.catalogue.list(locale, { sort, limit: PAGE_SIZE, cursor, ...(category ? { category: category.slug } : {}) }),
  );
  return {
    locale,
    categories,
    category,
    sort,
    page,
    title: category?.title ?? t('catalogue:categories.heading'),
    description: category?.description ?? t('catalogue:categories.description'),
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? ''),
  { name: 'description', content: loaderData?.description ?? '' },
];

export default function CategoriesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('catalogue');
  const { locale, categories, category, sort, page } = loaderData;
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
          {category && <CategoryIcon icon={category.icon} slug={category.slug} className="size-6 text-green-700 dark:text-green-400" />}
          {loaderData.title}
        </h1>
        <p className="text-zinc-600 dark:text-zinc-400">{loaderData.description}</p>
      </header>
      {category ? <CategoryChips categories={categories} locale={locale} /> : <CategoryCards categories={categories} locale={locale} />}
      <section aria-labelledby="list-heading" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="list-heading" className="text-lg font-semibold tracking-tight">
            {category ? t('categories.inCategory', { title: category.title }) : t('categories.allGames')}
            {category && <span className="ml-2 text-sm font-normal text-zinc-500 dark:text-zinc-400">{t('categories.count', { count: category.count })}</span>}
          </h2>
          <SortTabs current={sort} />
        </div>
        <PagedAppGrid first={page} locale={locale} />
      </section>
    </div>
  );
}

/** The category list of /categories: one card per category with its icon and number of titles. */
function CategoryCards({ categories, locale }: { categories: Category[]; locale: Locale }) {
  const { t } = useTranslation('catalogue');
  return (
    <ul className="grid grid-cols-1 gap-3 xs:grid-cols-2 md:grid-cols-3 lg:grid-cols-4" data-testid="category-list">
      {categories
        .filter((c) => c.count > 0)
        .map((category) => (
          <li key={category.slug}>
            <Link
              to={localePath(locale, `/categories/${category.slug}`)}
              className={cn(
                'flex h-full items-center gap-3 rounded-xl border border-zinc-200 bg-white p-3 transition hover:-translate-y-0.5 hover:border-green-600 hover:shadow-sm',
                'dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-green-500',
                focusRing,
              )}
            >
              <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-green-50 text-green-700 dark:bg-green-950 dark:text-green-400">
                <CategoryIcon icon={category.icon} slug={category.slug} className="size-5" />
              </span>
              <span className="min-w-0">
                <span className="block truncate font-medium">{category.title}</span>
                <span className="block text-sm text-zinc-500 dark:text-zinc-400">{t('categories.count', { count: category.count })}</span>
              </span>
            </Link>
          </li>
        ))}
    </ul>
  );
}
