/*
 * Invite links (SDK 1.1 `game.inviteLink` and `game.params`; decision 093): a play page URL of the
 * portal that opens the game with a few parameters of its own, carried in the query as `p_<key>`.
 */

export const INVITE_PARAM_PREFIX = 'p_';
export const MAX_INVITE_PARAMS = 8;
export const INVITE_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
export const MAX_INVITE_VALUE_LENGTH = 200;
/** All values together, so a link stays short enough to share. */
export const MAX_INVITE_TOTAL_LENGTH = 1000;

export type InviteParams = Record<string, string>;

/**
 * The game's parameters as a link carries them, or a reason they are refused: at most 8 keys
 * (a letter, then letters, digits or _, at most 32), values strings, finite numbers or booleans of
 * at most 200 characters without control characters, 1,000 characters in all.
 */
export function inviteParamsOf(input: unknown): { ok: true; params: InviteParams } | { ok: false; reason: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, reason: 'The parameters are an object of keys and values.' };
  const entries = Object.entries(input);
  if (entries.length > MAX_INVITE_PARAMS) return { ok: false, reason: `At most ${MAX_INVITE_PARAMS} parameters.` };
  const params: InviteParams = {};
  let total = 0;
  for (const [key, raw] of entries) {
    if (!INVITE_KEY_PATTERN.test(key))
      return { ok: false, reason: `"${key.slice(0, 40)}" is not a parameter name (a letter, then letters, digits or _, at most 32).` };
    if (!(typeof raw === 'string' || typeof raw === 'boolean' || (typeof raw === 'number' && Number.isFinite(raw))))
      return { ok: false, reason: `The value of "${key}" is not a string, number or boolean.` };
    const value = String(raw);
    // oxlint-disable-next-line no-control-regex -- control characters are what is refused
    if (value.length > MAX_INVITE_VALUE_LENGTH || /[\u0000-\u001f\u007f]/.test(value))
      return { ok: false, reason: `The value of "${key}" is longer than ${MAX_INVITE_VALUE_LENGTH} characters or holds control characters.` };
    total += key.length + value.length;
    params[key] = value;
  }
  if (total > MAX_INVITE_TOTAL_LENGTH) return { ok: false, reason: `The parameters come to more than ${MAX_INVITE_TOTAL_LENGTH} characters.` };
  return { ok: true, params };
}

/** The invite link: the play page's own address (origin and path) with the parameters in its query. */
export function inviteLink(playPage: string, params: InviteParams): string {
  const url = new URL(playPage);
  url.search = '';
  url.hash = '';
  for (const [key, value] of Object.entries(params)) url.searchParams.set(`${INVITE_PARAM_PREFIX}${key}`, value);
  return url.toString();
}

/** The parameters the play page was opened with: the valid `p_` entries of its query, the first of each key. */
export function paramsOfSearch(search: string): InviteParams {
  const params: InviteParams = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (!name.startsWith(INVITE_PARAM_PREFIX)) continue;
    const key = name.slice(INVITE_PARAM_PREFIX.length);
    if (key in params || Object.keys(params).length >= MAX_INVITE_PARAMS) continue;
    const checked = inviteParamsOf({ [key]: value });
    if (checked.ok) params[key] = value;
  }
  return params;
}
