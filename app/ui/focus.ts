/**
 * The visible keyboard focus ring every interactive primitive uses. `outline-none` also sets the
 * outline style Tailwind's width utility reads, so the focused state sets the style back to solid.
 */
export const focusRing =
  'outline-none focus-visible:outline-solid focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-green-600 dark:focus-visible:outline-green-400';
