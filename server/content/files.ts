import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { isTranslationKey, translator } from '../i18n.ts';

/** A content file that failed validation: the message names the file and the field. */
export class ContentError extends Error {
  override name = 'ContentError';
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`content is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Reads a YAML or JSON file. */
export async function readStructured(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  return file.endsWith('.json') ? JSON.parse(text) : YAML.parse(text);
}

/** Files below a folder whose names end with one of the extensions, sorted. */
export async function listFiles(folder: string, extensions: string[]): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && extensions.some((ext) => e.name.endsWith(ext)))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Validates `value` and records problems as "file: field: message" lines. */
export function check<S extends z.ZodType>(schema: S, value: unknown, file: string, root: string, problems: string[]): z.output<S> | null {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const name = relative(root, file) || file;
  for (const issue of result.error.issues) {
    // A rule named by a translation key (shared with the API, decision 125) reads in English here.
    const message = isTranslationKey(issue.message) ? translator('en')(issue.message, { value: typeof issue.input === 'string' ? issue.input : (JSON.stringify(issue.input) ?? '') }) : issue.message;
    problems.push(`${name}: ${issue.path.join('.') || '(file)'}: ${message}`);
  }
  return null;
}
