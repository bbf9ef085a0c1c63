const HAN_THEN_LATIN = /(\p{Script=Han})([A-Za-z0-9])/gu;
const LATIN_THEN_HAN = /([A-Za-z0-9])(\p{Script=Han})/gu;

/**
 * Chinese text with a space where Han characters meet Latin letters or digits ("玩 2048"), as
 * Chinese typesetting does; for sentences whose Latin part is a value (a game's title), which a
 * message cannot space in advance. Text without Han characters comes back unchanged.
 */
export function spaceBetweenScripts(text: string): string {
  return text.replace(HAN_THEN_LATIN, '$1 $2').replace(LATIN_THEN_HAN, '$1 $2');
}
