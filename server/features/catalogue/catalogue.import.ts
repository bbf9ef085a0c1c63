import { createHash } from 'node:crypto';
import { access, copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { z } from 'zod';
import { SKU_PATTERN } from '#common/api/game-store.schema.ts';
import { SLUG_PATTERN } from '#common/constants.ts';
import { check, ContentError, listFiles, readStructured } from '#server/content/files.ts';
import { isLoopbackHost } from '#server/config.ts';
import { hostedGameProblems, HOSTED_SLUG_PATTERN } from './hosted-game-limits.ts';
import { AchievementsField, declaredAchievement, declaredBoard, LeaderboardsField, recordProblems } from './game-records-fields.ts';
import type { CatalogueImportRepository, ImportedApp, ImportedCategory, ImportedTag } from './catalogue-import.repository.ts';

const slugField = z.string().regex(SLUG_PATTERN, 'must contain only letters, digits, hyphen and underscore').max(64);
const localeTexts = <S extends z.ZodRawShape>(shape: S) => z.object({ en: z.object(shape), 'zh-CN': z.object(shape).partial().optional() });

const CategoryFile = z.array(
  z.object({
    slug: slugField,
    icon: z.string().max(40).optional(),
    sort: z.number().int().default(0),
    i18n: localeTexts({ title: z.string().min(1).max(60), description: z.string().max(300).optional() }),
  }),
);

const TagFile = z.array(z.object({ slug: slugField, i18n: localeTexts({ title: z.string().min(1).max(40) }) }));

/** An origin without a path: https (wss) anywhere, http (ws) only on this machine for development. */
const backendOrigin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    const secure = url.protocol === 'https:' || url.protocol === 'wss:';
    const local = (url.protocol === 'http:' || url.protocol === 'ws:') && isLoopbackHost(url.hostname);
    return (secure || local) && `${url.protocol}//${url.host}` === value;
  } catch {
    return false;
  }
}, 'must be an origin such as https://api.example.com (no path; http only for localhost or 127.0.0.1)');

const AppFile = z.object({
  slug: z.coerce.string().pipe(slugField),
  type: z.enum(['game', 'app']),
  categories: z.array(slugField).min(1),
  tags: z.array(slugField).default([]),
  featured: z.boolean().default(false),
  orientation: z.enum(['portrait', 'landscape', 'any']).default('any'),
  width: z.number().int().min(100).max(4000),
  height: z.number().int().min(100).max(4000),
  developer: z.string().max(80).optional(),
  released_at: z.coerce.string().pipe(z.iso.date()),
  popularity: z.number().int().min(0).default(0),
  entry: z.string().min(1).max(200),
  /** Origins the game's frame may connect to besides its own files: its backend (decision 089). */
  backends: z.array(backendOrigin).max(10).default([]),
  thumbnail: z.string().min(1).max(200),
  screenshots: z.array(z.string().max(200)).max(12).default([]),
  published: z.boolean().default(true),
  items: z
    .array(
      z.object({
        sku: z.string().regex(SKU_PATTERN),
        /** In minor units (cents). */
        price: z.number().int().min(1).max(100_000_00),
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/)
          .default('USD'),
        i18n: localeTexts({ name: z.string().min(1).max(60) }),
      }),
    )
    .max(50)
    .default([]),
  leaderboards: LeaderboardsField,
  achievements: AchievementsField,
  i18n: localeTexts({
    title: z.coerce.string().pipe(z.string().min(1).max(80)),
    summary: z.string().min(1).max(200),
    description: z.string().min(1).max(4000),
    instructions: z.string().max(1000).optional(),
  }),
});

const IMAGE_TYPES = new Set(['.svg', '.png', '.jpg', '.jpeg', '.webp', '.gif', '.avif']);
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const STRUCTURED = ['.yaml', '.yml', '.json'];

export interface CatalogueImportOptions {
  /** Folder with categories.yaml and tags.yaml (both optional) and apps/*.yaml (or .json). */
  folder: string;
  /** Folder holding each game's files as <slug>/…, served at /games/<slug>/. */
  gamesFolder: string;
  /**
   * Where images that come with the import folder (not from the game's own folder) are copied,
   * under catalogue/, served at /uploads/catalogue/. Without it such images are an error.
   */
  uploadDir?: string;
}

export interface CatalogueImportReport {
  categories: number;
  tags: number;
  apps: number;
}

interface ImageCopy {
  from: string;
  to: string;
}

/**
 * Validates the whole folder first and writes nothing unless every entry is valid; problems name
 * the file and the field. Importing the same folder twice gives the same result.
 */
export async function importCatalogue(repository: CatalogueImportRepository, options: CatalogueImportOptions): Promise<CatalogueImportReport> {
  const { folder, gamesFolder } = options;
  const problems: string[] = [];
  const name = (file: string) => relative(folder, file) || file;
  const read = async (file: string) => {
    try {
      return { value: await readStructured(file) };
    } catch (error) {
      problems.push(`${name(file)}: (file): cannot be read: ${(error as Error).message.split('\n')[0]}`);
      return null;
    }
  };

  const categories: ImportedCategory[] = [];
  const categoriesFile = await firstExisting(folder, 'categories');
  if (categoriesFile) {
    const raw = await read(categoriesFile);
    if (raw) categories.push(...(check(CategoryFile, raw.value, categoriesFile, folder, problems) ?? []));
  }
  const tags: ImportedTag[] = [];
  const tagsFile = await firstExisting(folder, 'tags');
  if (tagsFile) {
    const raw = await read(tagsFile);
    if (raw) tags.push(...(check(TagFile, raw.value, tagsFile, folder, problems) ?? []));
  }
  for (const [file, list] of [
    [categoriesFile, categories],
    [tagsFile, tags],
  ] as const) {
    for (const duplicate of duplicates(list.map((entry) => entry.slug))) problems.push(`${name(file!)}: slug: "${duplicate}" is listed more than once`);
  }

  const existing = await repository.existingSlugs();
  const categorySlugs = new Set([...existing.categories, ...categories.map((c) => c.slug)]);
  const tagSlugs = new Set([...existing.tags, ...tags.map((t) => t.slug)]);

  const apps: ImportedApp[] = [];
  const copies: ImageCopy[] = [];
  const appFiles = await listFiles(join(folder, 'apps'), STRUCTURED);
  for (const file of appFiles) {
    const raw = await read(file);
    if (!raw) continue;
    const entry = check(AppFile, raw.value, file, folder, problems);
    if (!entry) continue;
    const where = name(file);
    for (const c of entry.categories) if (!categorySlugs.has(c)) problems.push(`${where}: categories: unknown category "${c}"`);
    for (const t of entry.tags) if (!tagSlugs.has(t)) problems.push(`${where}: tags: unknown tag "${t}"`);

    const gameFolder = join(gamesFolder, entry.slug);
    const isExternal = entry.entry.startsWith('https://');
    let entryUrl = entry.entry;
    if (!isExternal) {
      if (!isInside(entry.entry)) problems.push(`${where}: entry: must be a path inside games/${entry.slug}/`);
      else if (!(await exists(join(gameFolder, entry.entry)))) problems.push(`${where}: entry: file games/${entry.slug}/${entry.entry} does not exist`);
      entryUrl = `/games/${entry.slug}/${entry.entry}`;
      // A hosted game's slug names its host on the games origin (decision 089).
      if (!HOSTED_SLUG_PATTERN.test(entry.slug))
        problems.push(`${where}: slug: a hosted game's slug names its host: lowercase letters, digits and hyphens, at most 63`);
      for (const problem of await hostedGameProblems(gameFolder)) problems.push(`${where}: games/${entry.slug}/: ${problem}`);
    } else if (entry.backends.length > 0) {
      problems.push(`${where}: backends: only games hosted here have their connections limited; an external game declares nothing`);
    }
    const image = (field: string, path: string) =>
      resolveImage({ field, path, slug: entry.slug, gameFolder, entryFolder: dirname(file), where, options, problems, copies });
    const thumbnail = await image('thumbnail', entry.thumbnail);
    const screenshots: string[] = [];
    for (const [i, path] of entry.screenshots.entries()) screenshots.push(await image(`screenshots.${i}`, path));
    problems.push(...recordProblems(where, entry.leaderboards, entry.achievements));
    const achievements = [];
    for (const [i, a] of entry.achievements.entries()) achievements.push(declaredAchievement(a, a.icon ? await image(`achievements.${i}.icon`, a.icon) : null));

    apps.push({
      slug: entry.slug,
      type: entry.type,
      entryUrl,
      backendOrigins: entry.backends,
      thumbnail,
      screenshots,
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
      items: entry.items.map((item) => ({ sku: item.sku, price: item.price, currency: item.currency, names: item.i18n })),
      leaderboards: entry.leaderboards.map(declaredBoard),
      achievements,
    });
  }
  if (!categoriesFile && !tagsFile && appFiles.length === 0) problems.push(`${folder}: (folder): has no categories, tags or apps/ entries`);
  for (const d of duplicates(apps.map((a) => a.slug))) problems.push(`apps: slug: "${d}" is used by more than one entry`);
  if (problems.length > 0) throw new ContentError(problems);

  for (const copy of copies) {
    await mkdir(dirname(copy.to), { recursive: true });
    // Names are content hashes: a file that is there already has this content.
    if (!(await exists(copy.to))) await copyFile(copy.from, copy.to);
  }
  await repository.replaceCatalogue({ categories, tags, apps });
  return { categories: categories.length, tags: tags.length, apps: apps.length };
}

/**
 * The public URL of an image field. A path is looked up in the game's folder first (served at
 * /games/<slug>/), then next to the entry file; such an image is copied to the upload folder
 * under a content-hash name (served at /uploads/catalogue/, cacheable for ever).
 */
async function resolveImage(input: {
  field: string;
  path: string;
  slug: string;
  gameFolder: string;
  entryFolder: string;
  where: string;
  options: CatalogueImportOptions;
  problems: string[];
  copies: ImageCopy[];
}): Promise<string> {
  const { field, path, slug, where, problems } = input;
  if (path.startsWith('https://')) return path;
  const extension = extname(path).toLowerCase();
  if (!isInside(path)) {
    problems.push(`${where}: ${field}: must be a relative path without ".."`);
    return '';
  }
  if (!IMAGE_TYPES.has(extension)) {
    problems.push(`${where}: ${field}: must be an image (${[...IMAGE_TYPES].join(', ')}), not "${extension || path}"`);
    return '';
  }
  const inGame = join(input.gameFolder, path);
  if (await exists(inGame)) return (await checkSize(inGame, where, field, problems)) ? `/games/${slug}/${path}` : '';
  const beside = join(input.entryFolder, path);
  if (!(await exists(beside))) {
    problems.push(`${where}: ${field}: file ${path} exists neither in games/${slug}/ nor next to the entry`);
    return '';
  }
  if (!input.options.uploadDir) {
    problems.push(`${where}: ${field}: ${path} is not in games/${slug}/, and this import has no upload folder to copy it to`);
    return '';
  }
  if (!(await checkSize(beside, where, field, problems))) return '';
  const hash = createHash('sha256')
    .update(await readFile(beside))
    .digest('hex')
    .slice(0, 20);
  const fileName = `${hash}${extension}`;
  input.copies.push({ from: beside, to: join(input.options.uploadDir, 'catalogue', fileName) });
  return `/uploads/catalogue/${fileName}`;
}

async function checkSize(file: string, where: string, field: string, problems: string[]): Promise<boolean> {
  const { size } = await stat(file);
  if (size <= MAX_IMAGE_BYTES) return true;
  problems.push(`${where}: ${field}: image is ${(size / 1024 / 1024).toFixed(1)} MB, more than the 5 MB allowed`);
  return false;
}

/** A relative path that cannot leave its folder. */
function isInside(path: string): boolean {
  return !path.startsWith('/') && !path.startsWith('\\') && !path.split(/[\\/]/).includes('..');
}

async function firstExisting(folder: string, base: string): Promise<string | null> {
  for (const extension of STRUCTURED) {
    const file = join(folder, base + extension);
    if (await exists(file)) return file;
  }
  return null;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function duplicates(values: string[]): Set<string> {
  return new Set(values.filter((value, i) => values.indexOf(value) !== i));
}
