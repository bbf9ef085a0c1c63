// Catalogue entries for the tests of the entry's JSON Schema and of the import (docs/game-sdk.md,
// "The catalogue entry"): one that both accept, and broken ones that both must refuse.

/** An entry both the JSON Schema and the import accept (categories and tags of the test fixture; a game hosted elsewhere, so no files). */
export function goodCatalogueEntry(slug = 'star-hop'): Record<string, unknown> {
  return {
    slug,
    type: 'game',
    categories: ['puzzle'],
    tags: ['classic'],
    width: 800,
    height: 600,
    released_at: '2026-01-31',
    entry: `https://games.example.com/${slug}/`,
    thumbnail: `https://games.example.com/${slug}.svg`,
    items: [{ sku: `${slug}-skins`, price: 199, i18n: { en: { name: 'Skins' } } }],
    i18n: { en: { title: 'Star Hop', summary: 'Hop.', description: 'Hop from star to star.' }, 'zh-CN': { title: '星跳' } },
  };
}

/** The test entry's item, changed. */
const item = (changes: Record<string, unknown>) => [{ sku: 'star-hop-skins', price: 199, i18n: { en: { name: 'Skins' } }, ...changes }];

/** What is wrong, the field the import names, and the entry. */
export const BAD_CATALOGUE_ENTRIES: Array<[string, string, Record<string, unknown>]> = (() => {
  const good = goodCatalogueEntry();
  const en = (good.i18n as { en: Record<string, string> }).en;
  return [
    ['without a required field', 'thumbnail', { ...good, thumbnail: undefined }],
    ['with an unknown type', 'type', { ...good, type: 'toy' }],
    ['with no category', 'categories', { ...good, categories: [] }],
    ['with a slug that is not one', 'slug', { ...good, slug: 'star hop!' }],
    ['with a width out of range', 'width', { ...good, width: 20 }],
    ['with a fractional height', 'height', { ...good, height: 600.5 }],
    ['with a date that is not one', 'released_at', { ...good, released_at: '2026-02-30' }],
    ['with an item without a price', 'items.0.price', { ...good, items: item({ price: undefined }) }],
    ['with an item whose SKU has capitals', 'items.0.sku', { ...good, items: item({ sku: 'Skins' }) }],
    ['with a currency in lower case', 'items.0.currency', { ...good, items: item({ currency: 'usd' }) }],
    ['without English texts', 'i18n.en', { ...good, i18n: { 'zh-CN': { title: '星跳', summary: '跳', description: '跳' } } }],
    ['with a summary too long', 'i18n.en.summary', { ...good, i18n: { en: { ...en, summary: 'x'.repeat(201) } } }],
    ['with eleven backends', 'backends', { ...good, backends: Array.from({ length: 11 }, (_, i) => `https://api${i}.example.com`) }],
  ];
})();
