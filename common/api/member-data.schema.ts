import { z } from 'zod';

/* Schemas of "Download my data" (decision 144): a member's requests for an archive of their data. */

export const DATA_EXPORT_STATUSES = ['pending', 'ready', 'failed', 'expired'] as const;

export const DataExportSchema = z.object({
  id: z.string(),
  status: z.enum(DATA_EXPORT_STATUSES),
  requestedAt: z.string().describe('ISO-8601 UTC'),
  /** Set when an operator asked on the member's behalf. */
  byOperator: z.boolean(),
  readyAt: z.string().nullable(),
  expiresAt: z.string().nullable().describe('Until when the archive is offered (7 days after it is ready)'),
  sizeBytes: z.number().int().nullable(),
  downloadUrl: z.string().nullable().describe('The signed link of a ready archive, valid until expiresAt without a session'),
});
export type DataExport = z.infer<typeof DataExportSchema>;

export const DataExportListSchema = z.object({ exports: z.array(DataExportSchema) });
export type DataExportList = z.infer<typeof DataExportListSchema>;

export const DataExportRequestedSchema = z.object({
  export: DataExportSchema,
  created: z.boolean().describe('false when a request of the last 24 hours is still pending or offered'),
});

export const DataExportParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9]+$/),
});
/** A link that does not hold is answered 404, whatever is wrong with it. */
export const DataExportFileQuerySchema = z.object({ signature: z.string().max(128).default('') });
