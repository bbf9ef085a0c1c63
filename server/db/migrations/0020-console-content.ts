import type { Kysely } from 'kysely';

/**
 * Articles and static pages edited in the Console (issue 27; decision 099): the Markdown an
 * operator wrote, kept beside the rendered HTML so the editor opens what was written, and where
 * the current text came from (`import` or `console`), so the content import leaves browser edits
 * alone.
 */
export function consoleContent() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('article_translations').addColumn('body_markdown', 'text').execute();
      await db.schema
        .alterTable('articles')
        .addColumn('source', 'text', (c) => c.notNull().defaultTo('import'))
        .execute();
      await db.schema.alterTable('pages').addColumn('body_markdown', 'text').execute();
      await db.schema
        .alterTable('pages')
        .addColumn('source', 'text', (c) => c.notNull().defaultTo('import'))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('pages').dropColumn('source').execute();
      await db.schema.alterTable('pages').dropColumn('body_markdown').execute();
      await db.schema.alterTable('articles').dropColumn('source').execute();
      await db.schema.alterTable('article_translations').dropColumn('body_markdown').execute();
    },
  };
}
