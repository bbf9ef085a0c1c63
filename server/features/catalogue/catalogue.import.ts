import { access } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { SLUG_PATTERN } from '#common/constants.ts';
import { check, ContentError, listFiles, readStructured } from '#server/content/files.ts';
import type { CatalogueImportRepository, ImportedApp } from './catalogue-import.repository.ts';

const slug = z.string().regex(SLUG_PATTERN, 'must contain only letters, digits, hyphen and underscore').max(64);
const localeTexts = <S extends z.ZodRawShape>(shape: S) =>
  z.object({ en: z.object(shape), 'zh-CN': z.object(shape).partial().optional() });

const CategoryFile = z.array(
  z.object({
    slug,
    icon: z.string().max(40).optional(),
    sort: z.number().int().default(0),
    i18n: localeTexts({ title: z.string().min(1).max(60), description: z.string().max(300).optional() }),
  }),
);

const TagFile = z.array(z.object({ slug, i18n: localeTexts({ title: z.string().min(1).max(40) }) }));

const AppFile = z.object({
  slug: z.coerce.string().pipe(slug),
  type: z.enum(['game', 'app']),
  categories: z.array(slug).min(1),
  tags: z.array(slug).default([]),
  featured: z.boolean().default(false),
  orientation: z.enum(['portrait', 'landscape', 'any']).default('any'),
  width: z.number().int().min(100).max(4000),
  height: z.number().int().min(100).max(4000),
  developer: z.string().max(80).optional(),
  released_at: z.coerce.string().pipe(z.iso.date()),
  popularity: z.number().int().min(0).default(0),
  entry: z.string().min(1).max(200),
  thumbnail: z.string().min(1).max(200),
  screenshots: z.array(z.string().max(200)).default([]),
  published: z.boolean().default(true),
  i18n: localeTexts({
    title: z.coerce.string().pipe(z.string().min(1).max(80)),
    summary: z.string().min(1).max(200),
    description: z.string().min(1).max(4000),
    instructions: z.string().max(1000).optional(),
  }),
});

export interface CatalogueImportOptions {
  /** Folder with categories.yaml, tags.yaml and apps/*.yaml. */
  folder: string;
  /** Folder holding each game's files as <slug>/…, served at /games/<slug>/. */
  gamesFolder: string;
}

export interface CatalogueImportReport {
  categories: number;
  tags: number;
  apps: number;
}

/** Validates the whole folder first; writes nothing unless every entry is valid. Importing twice gives the same result. */
export async function importCatalogue(repository: CatalogueImportRepository, options: CatalogueImportOptions): Promise<CatalogueImportReport> {
  const { folder, gamesFolder } = options;
  const problems: string[] = [];
  const categoriesFile = join(folder, 'categories.yaml');
  const tagsFile = join(folder, 'tags.yaml');
  const categories = check(CategoryFile, await readStructured(categoriesFile).catch((e) => problems.push(`categories.yaml: ${e.message}`)), categoriesFile, folder, problems) ?? [];
  const tags = check(TagFile, await readStructured(tagsFile).catch((e) => problems.push(`tags.yaml: ${e.message}`)), tagsFile, folder, problems) ?? [];
  const categorySlugs = new Set(categories.map((c) => c.slug));
  const tagSlugs = new Set(tags.map((t) => t.slug));

  const apps: ImportedApp[] = [];
  for (const file of await listFiles(join(folder, 'apps'), ['.yaml', '.yml', '.json'])) {
    const raw = await readStructured(file).catch((e: Error) => {
      problems.push(`${basename(file)}: ${e.message}`);
      return undefined;
    });
    const entry = check(AppFile, raw, file, folder, problems);
    if (!entry) continue;
    const name = `apps/${basename(file)}`;
    for (const c of entry.categories) if (!categorySlugs.has(c)) problems.push(`${name}: categories: unknown category "${c}"`);
    for (const t of entry.tags) if (!tagSlugs.has(t)) problems.push(`${name}: tags: unknown tag "${t}"`);
    const isExternal = entry.entry.startsWith('https://');
    if (!isExternal) {
      for (const [field, path] of [['entry', entry.entry], ['thumbnail', entry.thumbnail]] as const) {
        if (path.includes('..')) problems.push(`${name}: ${field}: must stay inside the game's folder`);
        else await access(join(gamesFolder, entry.slug, path)).catch(() => problems.push(`${name}: ${field}: file games/${entry.slug}/${path} does not exist`));
      }
    }
    const base = `/games/${entry.slug}/`;
    apps.push({
      slug: entry.slug,
      type: entry.type,
      entryUrl: isExternal ? entry.entry : base + entry.entry,
      thumbnail: entry.thumbnail.startsWith('https://') ? entry.thumbnail : base + entry.thumbnail,
      screenshots: entry.screenshots.map((s) => (s.startsWith('https://') ? s : base + s)),
      orientation: entry.orientation,
      width: entry.width,
      height: entry.height,
      developer: entry.developer ?? null,
      featured: entry.featured,
      popularity: entry.popularity,
      releasedAt: `${entry.released_at}T00:00:00.000Z`,
      published: entry.published,
      categories: entry.categories,
      tags: entry.tags,
      texts: entry.i18n,
    });
  }
  const duplicates = apps.map((a) => a.slug).filter((s, i, all) => all.indexOf(s) !== i);
  for (const d of new Set(duplicates)) problems.push(`apps: slug "${d}" is used by more than one entry`);
  if (problems.length > 0) throw new ContentError(problems);

  await repository.replaceCatalogue({ categories, tags, apps });
  return { categories: categories.length, tags: tags.length, apps: apps.length };
}
