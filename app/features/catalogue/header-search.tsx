/** The header's search box; the catalogue feature fills it in. */
export function HeaderSearch() {
  return null;
}
