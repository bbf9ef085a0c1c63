import type { Kysely } from 'kysely';

/**
 * An article's author as written in each translation (a Chinese file may give the name in
 * Chinese characters). `articles.author` keeps the English name, which translations without
 * their own fall back to.
 */
export function articleTranslationAuthors() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('article_translations').addColumn('author', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('article_translations').dropColumn('author').execute();
    },
  };
}
