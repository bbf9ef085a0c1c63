import type { MetaDescriptor } from 'react-router';

interface RootData {
  productName: string;
}

/** Page titles read "{page title} | {product name}" (spec section 1). */
export function pageTitle(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>, title: string): MetaDescriptor {
  const root = matches.find((m) => m?.id === 'root')?.loaderData as RootData | undefined;
  return { title: `${title} | ${root?.productName ?? 'Playport'}` };
}

/**
 * The address a page names as canonical, without locale prefix: a page shown at more than one
 * address (an article at /article/post/{id}) gives its main one as `canonicalPath` in its loader
 * data; the deepest route that does wins. Undefined means the page's own path.
 */
export function canonicalPathOf(matches: ReadonlyArray<{ loaderData?: unknown } | undefined>): string | undefined {
  for (const match of matches.toReversed()) {
    const value = (match?.loaderData as { canonicalPath?: unknown } | undefined)?.canonicalPath;
    if (typeof value === 'string') return value;
  }
  return undefined;
}
