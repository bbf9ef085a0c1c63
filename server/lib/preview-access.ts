import type { Caller } from './caller.ts';

/** The check of a build's preview (BuildsService.previewAllows, decision 097), for the services that let a preview through. */
export interface PreviewCheck {
  previewAllows(caller: Caller, appId: number, label: string | undefined): Promise<boolean>;
}

/**
 * Whether a game answers a call: it is published, or it is unpublished and the call came through
 * a build's preview its caller may use (the developer or a QA test member; decision 097).
 * `published` is undefined for a game that does not exist; without `preview`, only published games answer.
 */
export async function publishedOrPreviewed(
  published: boolean | undefined,
  preview: PreviewCheck | null,
  caller: Caller,
  appId: number,
  label: string | undefined,
): Promise<boolean> {
  if (published === true) return true;
  return published === false && preview !== null && (await preview.previewAllows(caller, appId, label));
}
