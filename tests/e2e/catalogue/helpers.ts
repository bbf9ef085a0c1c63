import type { APIRequestContext } from '@playwright/test';

/** What the API answers in `data` for a GET, in a locale. */
export async function apiData<T = any>(request: APIRequestContext, path: string, locale = 'en'): Promise<T> {
  const response = await request.get(`/serve/api${path}`, { headers: { locale } });
  if (!response.ok()) throw new Error(`GET ${path}: ${response.status()}`);
  return (await response.json()).data as T;
}
