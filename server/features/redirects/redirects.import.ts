import { dirname } from 'node:path';
import { z } from 'zod';
import { sameOriginPath } from '#common/same-origin-path.ts';
import { ContentError, check, readStructured } from '#server/content/files.ts';
import type { Clock } from '#server/lib/clock.ts';
import { isoNow } from '#server/lib/clock.ts';
import type { RedirectsRepository } from './redirects.repository.ts';

const RedirectsFile = z.array(
  z.object({
    path: z
      .string()
      .regex(/^\/[^\s?#]*$/, 'must be a path starting with / without query or hash')
      .max(300),
    destination: z
      .string()
      .max(1000)
      .refine((v) => sameOriginPath(v, '') === v || /^https?:\/\/[^\s]+$/.test(v), 'must be a path of this site or an http(s) URL'),
    status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]).default(302),
  }),
);

/** Imports redirects.yaml (path, destination, status); validates it whole before writing. */
export async function importRedirects(repository: RedirectsRepository, file: string, clock: Clock): Promise<{ redirects: number }> {
  const problems: string[] = [];
  const raw = await readStructured(file).catch((error: Error) => {
    problems.push(`redirects.yaml: ${error.message}`);
    return undefined;
  });
  const entries = problems.length > 0 ? null : check(RedirectsFile, raw, file, dirname(file), problems);
  const paths = (entries ?? []).map((e) => e.path);
  for (const path of new Set(paths.filter((p, i) => paths.indexOf(p) !== i))) problems.push(`redirects.yaml: path "${path}" is listed more than once`);
  if (problems.length > 0 || !entries) throw new ContentError(problems);
  const now = isoNow(clock);
  await repository.upsert(entries.map((e) => ({ path: e.path, destination: e.destination, status: e.status, created_at: now })));
  return { redirects: entries.length };
}
