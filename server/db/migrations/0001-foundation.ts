import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { withId } from './helpers.ts';

/** Accounts, catalogue, articles, pages and redirects: the data model of the whole spec. */
export function foundation(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await withId(kind, db.schema.createTable('users'))
        .addColumn('nickname', 'text')
        .addColumn('avatar', 'text')
        .addColumn('username', 'text')
        .addColumn('username_normalized', 'text', (c) => c.unique())
        .addColumn('password_hash', 'text')
        .addColumn('email', 'text')
        .addColumn('phone', 'text')
        .addColumn('fingerprint_hash', 'text')
        .addColumn('is_guest', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_fingerprint_idx').on('users').column('fingerprint_hash').execute();

      await withId(kind, db.schema.createTable('access_tokens'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('access_tokens_user_idx').on('access_tokens').column('user_id').execute();

      await withId(kind, db.schema.createTable('social_accounts'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('provider_user_id', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text')
        .addColumn('email', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('social_accounts_provider_uq', ['platform', 'provider_user_id'])
        .addUniqueConstraint('social_accounts_user_platform_uq', ['user_id', 'platform'])
        .execute();

      await withId(kind, db.schema.createTable('webauthn_credentials'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text')
        .addColumn('device_type', 'text')
        .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema.createIndex('webauthn_credentials_user_idx').on('webauthn_credentials').column('user_id').execute();

      await db.schema
        .createTable('auth_challenges')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('challenge', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('payload', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('reset_at', 'bigint', (c) => c.notNull())
        .execute();

      await withId(kind, db.schema.createTable('categories'))
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('icon', 'text')
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('category_translations')
        .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id').onDelete('cascade'))
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addPrimaryKeyConstraint('category_translations_pk', ['category_id', 'locale'])
        .execute();

      await withId(kind, db.schema.createTable('tags'))
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('tag_translations')
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('tag_translations_pk', ['tag_id', 'locale'])
        .execute();

      await withId(kind, db.schema.createTable('apps'))
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('entry_url', 'text', (c) => c.notNull())
        .addColumn('thumbnail', 'text', (c) => c.notNull())
        .addColumn('screenshots', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('orientation', 'text', (c) => c.notNull().defaultTo('any'))
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('developer', 'text')
        .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('play_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('released_at', 'text', (c) => c.notNull())
        .addColumn('published', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('apps_popular_idx').on('apps').columns(['play_count', 'id']).execute();
      await db.schema.createIndex('apps_released_idx').on('apps').columns(['released_at', 'id']).execute();
      await db.schema
        .createTable('app_translations')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('instructions', 'text')
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('app_translations_pk', ['app_id', 'locale'])
        .execute();
      await db.schema
        .createTable('app_categories')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('app_categories_pk', ['app_id', 'category_id'])
        .execute();
      await db.schema.createIndex('app_categories_category_idx').on('app_categories').column('category_id').execute();
      await db.schema
        .createTable('app_tags')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('app_tags_pk', ['app_id', 'tag_id'])
        .execute();
      await db.schema.createIndex('app_tags_tag_idx').on('app_tags').column('tag_id').execute();

      await db.schema
        .createTable('played_games')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('play_count', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('first_played_at', 'text', (c) => c.notNull())
        .addColumn('last_played_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('played_games_pk', ['user_id', 'app_id'])
        .execute();
      await db.schema.createIndex('played_games_recent_idx').on('played_games').columns(['user_id', 'last_played_at']).execute();

      await db.schema
        .createTable('favourites')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('favourites_pk', ['user_id', 'app_id'])
        .execute();

      await withId(kind, db.schema.createTable('article_columns'))
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('parent_id', 'integer', (c) => c.references('article_columns.id').onDelete('set null'))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cover', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('article_column_translations')
        .addColumn('column_id', 'integer', (c) => c.notNull().references('article_columns.id').onDelete('cascade'))
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addPrimaryKeyConstraint('article_column_translations_pk', ['column_id', 'locale'])
        .execute();

      await db.schema
        .createTable('articles')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('column_id', 'integer', (c) => c.notNull().references('article_columns.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('cover', 'text')
        .addColumn('author', 'text')
        .addColumn('published_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('articles_column_published_idx').on('articles').columns(['column_id', 'published_at', 'id']).execute();
      await db.schema
        .createTable('article_translations')
        .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('body_html', 'text', (c) => c.notNull())
        .addColumn('reading_minutes', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addPrimaryKeyConstraint('article_translations_pk', ['article_id', 'locale'])
        .execute();

      await db.schema
        .createTable('pages')
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('body_html', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('pages_pk', ['slug', 'locale'])
        .execute();

      await db.schema
        .createTable('redirects')
        .addColumn('path', 'text', (c) => c.primaryKey())
        .addColumn('destination', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(302))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'redirects',
        'pages',
        'article_translations',
        'articles',
        'article_column_translations',
        'article_columns',
        'favourites',
        'played_games',
        'app_tags',
        'app_categories',
        'app_translations',
        'apps',
        'tag_translations',
        'tags',
        'category_translations',
        'categories',
        'rate_limits',
        'auth_challenges',
        'webauthn_credentials',
        'social_accounts',
        'access_tokens',
        'users',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
