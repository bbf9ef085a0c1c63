import type { MetaDescriptor } from 'react-router';

interface RootData {
  productName: string;
}

/** Page titles read "{page title} | {product name}" (spec section 1). */
export function pageTitle(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>, title: string): MetaDescriptor {
  const root = matches.find((m) => m?.id === 'root')?.loaderData as RootData | undefined;
  return { title: `${title} | ${root?.productName ?? 'Playport'}` };
}
