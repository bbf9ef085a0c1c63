import { createHash } from 'node:crypto';
import { access, readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { z } from 'zod';
import { SKU_PATTERN } from '#common/api/game-store.schema.ts';
import { SLUG_PATTERN } from '#common/constants.ts';
import { type FileStorage, publicUrl } from '#server/adapters/storage/file-storage.ts';
import { check, ContentError, listFiles, readStructured } from '#server/content/files.ts';
import { backendOriginOf } from '#server/lib/backend-origins.ts';
import { hostedGameProblems, HOSTED_SLUG_PATTERN } from './hosted-game-limits.ts';
import { AchievementsField, declaredAchievement, declaredBoard, LeaderboardsField, recordProblems } from './game-records-fields.ts';
import type { CatalogueImportRepository, ImportedApp, ImportedCategory, ImportedTag } from './catalogue-import.repository.ts';

const slugField = z.string().regex(SLUG_PATTERN, 'must contain only letters, digits, hyphen and underscore').max(64);
const localeTexts = <S extends z.ZodRawShape>(shape: S) =>
  z.object({
    en: z.object(shape).describe('English (required).'),
    'zh-CN': z.object(shape).partial().optional().describe('Simplified Chinese; a text left out is shown in English.'),
  });

const CategoryFile = z.array(
  z.object({
    slug: slugField,
    icon: z.string().max(40).optional(),
    sort: z.number().int().default(0),
    i18n: localeTexts({ title: z.string().min(1).max(60), description: z.string().max(300).optional() }),
  }),
);

const TagFile = z.array(z.object({ slug: slugField, i18n: localeTexts({ title: z.string().min(1).max(40) }) }));

/** An origin without a path (decision 107): https (wss) anywhere, http (ws) only on this machine for development; kept as rebuilt. */
const backendOrigin = z
  .string()
  .max(300)
  .check((ctx) => {
    if (backendOriginOf(ctx.value) === null)
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: `${JSON.stringify(ctx.value)} is not an origin such as https://api.example.com (no path, no wildcard; http only for localhost or 127.0.0.1)`,
      });
  })
  .overwrite((value) => backendOriginOf(value) ?? value);

export const AppFile = z.object({
  slug: z.coerce
    .string()
    .pipe(slugField)
    .describe(
      'The address of the game: /play/{slug}, and for a hosted game its folder games/{slug}/ and its host {slug}.<games origin> (then lower-case letters, digits and hyphens, at most 63). Quote a slug made of digits ("2048").',
    ),
  type: z.enum(['game', 'app']).describe('"game" for a game, "app" for a tool (a calculator, a sketchpad): both are listed and played the same way.'),
  categories: z.array(slugField).min(1).describe('Slugs of the categories it is listed in (content/catalogue/categories.yaml), at least one.'),
  tags: z.array(slugField).default([]).describe('Slugs of its tags (content/catalogue/tags.yaml).'),
  featured: z.boolean().default(false).describe('Whether the home page features it.'),
  orientation: z
    .enum(['portrait', 'landscape', 'any'])
    .default('any')
    .describe('The screen orientation it is made for; the play page asks a phone in the other orientation to turn.'),
  width: z.number().int().min(100).max(4000).describe('The width in CSS pixels the game is designed for (with height: the frame keeps this aspect ratio).'),
  height: z.number().int().min(100).max(4000).describe('The height in CSS pixels the game is designed for.'),
  developer: z.string().max(80).optional().describe('The name of the studio or person who made it, shown on its page.'),
  released_at: z.coerce.string().pipe(z.iso.date()).describe('The release date, YYYY-MM-DD (quote it in YAML: "2025-03-14"); lists sort new games by it.'),
  popularity: z.number().int().min(0).default(0).describe('A starting popularity score: "popular" lists sort by it.'),
  entry: z
    .string()
    .min(1)
    .max(200)
    .describe('The page that starts the game: a path inside games/{slug}/ (hosted here, e.g. index.html) or an https:// address of a game hosted elsewhere.'),
  /** Origins the game's frame may connect to besides its own files: its backend (decision 089). */
  backends: z
    .array(backendOrigin)
    .max(10)
    .default([])
    .describe(
      'Origins (no path) the hosted game may connect to besides its own files, such as its backend: https or wss anywhere, http only for localhost and 127.0.0.1. At most 10.',
    ),
  thumbnail: z
    .string()
    .min(1)
    .max(200)
    .describe('The tile image: a path in games/{slug}/ or next to the entry file, or an https:// address; SVG, PNG, JPEG, WebP, GIF or AVIF, at most 5 MB.'),
  screenshots: z.array(z.string().max(200)).max(12).default([]).describe('Up to 12 screenshots for the game page, found like the thumbnail.'),
  published: z.boolean().default(true).describe('Whether it is listed and playable; false keeps it imported but hidden.'),
  items: z
    .array(
      z.object({
        sku: z
          .string()
          .regex(SKU_PATTERN, 'payments:errors.sku')
          .describe("The item's id, which the game passes to Playport.pay: 1–64 lower-case letters, digits, _ . - (starting with a letter or digit)."),
        /** In minor units (cents). */
        price: z.number().int().min(1).max(100_000_00).describe('The price in minor units (cents): 199 is 1.99.'),
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/, 'payments:errors.currency')
          .default('USD')
          .describe('The ISO 4217 currency code of the price.'),
        kind: z
          .enum(['permanent', 'consumable'])
          .default('permanent')
          .describe(
            "permanent: owned once bought (a second purchase answers already_owned); consumable: each paid order adds one to the player's inventory, which the game uses up (decision 091).",
          ),
        i18n: localeTexts({ name: z.string().min(1).max(60).describe("The item's name as the player sees it in the checkout and in My area.") }).describe(
          "The item's name in each language.",
        ),
      }),
    )
    .max(50)
    .default([])
    .describe("Items the game sells through Playport.pay (at most 50); prices are always the portal's."),
  leaderboards: LeaderboardsField,
  achievements: AchievementsField,
  i18n: localeTexts({
    title: z.coerce.string().pipe(z.string().min(1).max(80)).describe('The name of the game.'),
    summary: z.string().min(1).max(200).describe('One line for tiles and search results.'),
    description: z.string().min(1).max(4000).describe("The game page's description (plain text, paragraphs separated by blank lines)."),
    instructions: z.string().max(1000).optional().describe('How to play, shown on the game page.'),
  }).describe('The texts of the game page in each language.'),
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
   * Where images that come with the import folder (not from the game's own folder) are copied:
   * the uploads (a folder or the bucket, decision 150), under catalogue/. Without it such images are an error.
   */
  uploads?: FileStorage;
}

export interface CatalogueImportReport {
  categories: number;
  tags: number;
  apps: number;
  /** Slugs whose `published` and `featured` an operator set in the Console: kept as they are (decision 099). */
  keptConsoleListings: string[];
}

interface ImageCopy {
  from: string;
  /** The key in the uploads. */
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
      items: entry.items.map((item) => ({ sku: item.sku, price: item.price, currency: item.currency, kind: item.kind, names: item.i18n })),
      leaderboards: entry.leaderboards.map(declaredBoard),
      achievements,
    });
  }
  if (!categoriesFile && !tagsFile && appFiles.length === 0) problems.push(`${folder}: (folder): has no categories, tags or apps/ entries`);
  for (const d of duplicates(apps.map((a) => a.slug))) problems.push(`apps: slug: "${d}" is used by more than one entry`);
  if (problems.length > 0) throw new ContentError(problems);

  for (const copy of copies) {
    // Names are content hashes: a file that is there already has this content.
    if (!(await options.uploads!.stat(copy.to))) await options.uploads!.put(copy.to, await readFile(copy.from));
  }
  const keptConsoleListings = await repository.replaceCatalogue({ categories, tags, apps });
  return { categories: categories.length, tags: tags.length, apps: apps.length, keptConsoleListings };
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
  if (!input.options.uploads) {
    problems.push(`${where}: ${field}: ${path} is not in games/${slug}/, and this import has no upload folder to copy it to`);
    return '';
  }
  if (!(await checkSize(beside, where, field, problems))) return '';
  const hash = createHash('sha256')
    .update(await readFile(beside))
    .digest('hex')
    .slice(0, 20);
  const fileName = `${hash}${extension}`;
  input.copies.push({ from: beside, to: `catalogue/${fileName}` });
  return publicUrl(input.options.uploads, `catalogue/${fileName}`);
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
