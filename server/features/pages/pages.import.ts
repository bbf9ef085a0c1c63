import { basename } from 'node:path';
import { z } from 'zod';
import { PAGE_SLUG_PATTERN } from '#common/api/pages.schema.ts';
import { isLocale, LOCALE_CODES } from '#common/locales.ts';
import { check, ContentError, listFiles } from '#server/content/files.ts';
import { readFrontMatterFile, renderMarkdown } from '#server/content/markdown.ts';
import type { ImportedPageRow, PagesRepository } from './pages.repository.ts';

const FrontMatter = z.object({
  slug: z.string().regex(PAGE_SLUG_PATTERN, 'must be lower-case letters, digits and hyphens').max(64),
  locale: z.enum(LOCALE_CODES as [string, ...string[]]),
  title: z.coerce.string().pipe(z.string().trim().min(1).max(120)),
  description: z.string().trim().max(300).optional(),
  // YAML may read an unquoted date as text or as a date; both become an ISO date.
  updated_at: z.union([z.date().transform((d) => d.toISOString().slice(0, 10)), z.string()]).pipe(z.iso.date().or(z.iso.datetime())),
});

export interface PagesImportReport {
  pages: number;
  /** Slugs the import left alone because an operator edited them in the Console (decision 099). */
  keptConsoleEdits: string[];
}

/**
 * Imports `<slug>.<locale>.md` files (front matter: slug, locale, title, description, updated_at).
 * Validates every file first and writes nothing unless all are valid; importing twice gives the
 * same rows. Every slug needs an English version, the fallback of the other locales.
 */
export async function importPages(repository: PagesRepository, folder: string): Promise<PagesImportReport> {
  const problems: string[] = [];
  const rows: ImportedPageRow[] = [];
  for (const file of await listFiles(folder, ['.md'])) {
    const name = basename(file);
    const parts = /^(.+)\.([A-Za-z-]+)\.md$/.exec(name);
    if (!parts || !isLocale(parts[2])) {
      problems.push(`${name}: file name must be <slug>.<locale>.md with locale ${LOCALE_CODES.join(' or ')}`);
      continue;
    }
    const { data, body } = await readFrontMatterFile(file);
    const page = check(FrontMatter, data, file, folder, problems);
    if (!page) continue;
    if (page.slug !== parts[1]) problems.push(`${name}: slug: "${page.slug}" does not match the file name`);
    if (page.locale !== parts[2]) problems.push(`${name}: locale: "${page.locale}" does not match the file name`);
    if (body.trim() === '') problems.push(`${name}: (body): must not be empty`);
    rows.push({
      slug: page.slug,
      locale: page.locale,
      title: page.title,
      description: page.description ?? null,
      body_html: renderMarkdown(body),
      updated_at: page.updated_at.length === 10 ? `${page.updated_at}T00:00:00.000Z` : new Date(page.updated_at).toISOString(),
    });
  }
  const slugs = new Set(rows.map((r) => r.slug));
  for (const slug of slugs) {
    if (!rows.some((r) => r.slug === slug && r.locale === 'en')) problems.push(`${slug}: has no English version (${slug}.en.md)`);
  }
  if (problems.length > 0) throw new ContentError(problems);
  const kept = await repository.upsert(rows);
  return { pages: rows.length, keptConsoleEdits: kept };
}
