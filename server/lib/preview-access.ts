import type { Caller } from './caller.ts';

/** The check of a build's preview (BuildsService, decision 097), for the services that let a preview through. */
export interface PreviewCheck {
  /** Whether the label names a build of this game and the caller may use its preview (the developer or a QA test member). */
  previewAllows(caller: Caller, appId: number, label: string | undefined): Promise<boolean>;
  /** Whether the label is one the portal signed for a build of this game (a backend's test-mode call, decision 111). */
  previewOfGame(appId: number, label: string | undefined): Promise<boolean>;
  /** Whether a member may use the game's previews: its developer or a QA test member. */
  previewTester(appId: number, userId: number): Promise<boolean>;
}

/**
 * Live or test (decision 111): a call through a build's preview is in test mode, and its orders,
 * holdings, scores and unlocks are kept apart from the live game's.
 */
export type Mode = 'live' | 'test';

/** How a game bridge call is answered: its mode, and whether it carried a preview label that does not hold (then it is live). */
export interface CallMode {
  mode: Mode;
  unboundLabel: boolean;
}

/**
 * Whether a game answers a call: it is published, or it is unpublished and the call came through
 * a build's preview its caller may use (the developer or a QA test member; decision 097).
 * `published` is undefined for a game that does not exist; without `preview`, only published games answer.
 */
export async function publishedOrPreviewed(
  published: boolean | undefined,
  preview: Pick<PreviewCheck, 'previewAllows'> | null,
  caller: Caller,
  appId: number,
  label: string | undefined,
): Promise<boolean> {
  if (published === true) return true;
  return published === false && preview !== null && (await preview.previewAllows(caller, appId, label));
}

/**
 * The mode of a game bridge call (decision 111), or null when the game does not answer it (404):
 * through a preview of this game that the caller may use, test, published or not; otherwise live,
 * for a published game only. A label that does not hold on a published game leaves the call live
 * and says so (`unboundLabel`), for the calls that refuse it rather than act live (a purchase).
 */
export async function callMode(
  published: boolean | undefined,
  preview: Pick<PreviewCheck, 'previewAllows'> | null,
  caller: Caller | null,
  appId: number,
  label: string | undefined,
): Promise<CallMode | null> {
  if (published === undefined) return null;
  if (label !== undefined && caller !== null && preview !== null && (await preview.previewAllows(caller, appId, label)))
    return { mode: 'test', unboundLabel: false };
  return published ? { mode: 'live', unboundLabel: label !== undefined } : null;
}
