import { z } from 'zod';
import { AppIdSchema } from './catalogue.schema.ts';

/* Builds of developers' games, their review and release (issue 27; decision 097). */

export const BUILD_STATUSES = ['uploaded', 'submitted', 'approved', 'rejected'] as const;
export const BUILD_PROBLEM_RULES = ['archive', 'declared', 'entry', 'total', 'files', 'file_size', 'type', 'path', 'link', 'ratio'] as const;
export const REJECT_REASON_MAX = 2000;

export const BuildIdSchema = z.coerce.number().int().positive().max(2_147_483_647);
export const GameParamsSchema = z.object({ app_id: AppIdSchema });
export const GameBuildParamsSchema = z.object({ app_id: AppIdSchema, build_id: BuildIdSchema });
export const BuildParamsSchema = z.object({ build_id: BuildIdSchema });

export const BuildSchema = z.object({
  id: z.number().int(),
  appId: z.number().int(),
  version: z.number().int().meta({ description: '1, 2, 3… per game, in upload order' }),
  status: z.enum(BUILD_STATUSES),
  reason: z.string().nullable().meta({ description: "The operator's reason when rejected" }),
  live: z.boolean().meta({ description: 'Whether players get this build now' }),
  entryPath: z.string(),
  fileCount: z.number().int(),
  totalBytes: z.number().int(),
  archiveBytes: z.number().int(),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  previewUrl: z.string().meta({ description: 'The private QA-mode link that runs this build, whatever its status' }),
});
export type Build = z.infer<typeof BuildSchema>;

export const BuildListSchema = z.object({ builds: z.array(BuildSchema), liveBuildId: z.number().int().nullable() });

export const QueuedBuildSchema = BuildSchema.extend({ slug: z.string(), title: z.string(), studioName: z.string().nullable() });
export type QueuedBuild = z.infer<typeof QueuedBuildSchema>;
export const ReviewQueueSchema = z.object({ builds: z.array(QueuedBuildSchema) });

/** An operator's rollback: the reason, optional, goes to the audit log. */
export const OperatorRollbackBodySchema = z.object({ reason: z.string().trim().max(500).default('') });
export const RejectBodySchema = z.object({ reason: z.string().trim().min(1, 'studio:builds.errors.reasonRequired').max(REJECT_REASON_MAX) });

export const BuildProblemSchema = z.object({
  rule: z.enum(BUILD_PROBLEM_RULES),
  path: z.string().optional(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  message: z.string(),
});
export type BuildProblem = z.infer<typeof BuildProblemSchema>;
