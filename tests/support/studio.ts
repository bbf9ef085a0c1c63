/**
 * The Studio's whole details form (PUT /studio/games/{id}/), as the details page sends it: the
 * listing a journey needs, with `fields` over empty lists and no images.
 */
export function studioForm(fields: { i18n: Record<string, { title: string; summary: string; description: string }> } & Record<string, unknown>) {
  return {
    categories: ['puzzle'],
    tags: [],
    orientation: 'landscape',
    width: 800,
    height: 450,
    backends: [],
    thumbnail: null,
    cover: null,
    screenshots: [],
    items: [],
    leaderboards: [],
    achievements: [],
    ...fields,
  };
}
