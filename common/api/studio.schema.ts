import { z } from 'zod';

/** A studio profile as the member enters it: checked in the browser and by the API alike. */
export const DeveloperProfileBodySchema = z.object({
  studioName: z.string().trim().min(1, 'studio:games.errors.studioName').max(80, 'studio:games.errors.studioName').describe('The studio name players see.'),
  contactEmail: z.email('studio:games.errors.contactEmail').max(254, 'studio:games.errors.contactEmail').describe('Where the portal reaches the studio.'),
});
