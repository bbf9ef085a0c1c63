import { describe, expect, it } from 'vitest';
import { checkFile } from './check-layers.ts';

const rules = (file: string, source: string) => checkFile(file, source).map((v) => v.rule);

describe('layer rules', () => {
  it('refuses a deliberate cross-feature import of a repository, on the server and in the app', () => {
    expect(rules('server/features/articles/articles.service.ts', "import { CatalogueRepository } from '../catalogue/catalogue.repository.ts';")).toEqual([
      "features do not import each other's internals: articles may use only types of catalogue's service",
    ]);
    expect(rules('server/features/articles/articles.service.ts', "import { x } from '#server/features/accounts/users.repository.ts';")).toHaveLength(1);
    expect(rules('app/features/catalogue/app-tile.tsx', "import { session } from '../accounts/session-store.ts';")).toEqual([
      "features do not import each other's internals: catalogue may not use accounts's session-store.ts",
    ]);
  });

  it("lets a feature use the types of another feature's service, and tests set up what they need", () => {
    expect(rules('server/features/articles/articles.service.ts', "import type { CatalogueService } from '../catalogue/catalogue.service.ts';")).toEqual([]);
    expect(rules('server/features/articles/articles.db.test.ts', "import { importCatalogue } from '#server/features/catalogue/catalogue.import.ts';")).toEqual([]);
    expect(rules('app/features/catalogue/favourite-button.tsx', "import { useSession } from '../accounts/use-session.ts';")).toEqual([]);
  });

  it('keeps server modules out of the browser and app modules out of the server', () => {
    expect(rules('app/routes/home.tsx', "import { openDatabase } from '#server/db/client.ts';")).toHaveLength(1);
    expect(rules('app/features/articles/article-pages.server.ts', "import { openDatabase } from '#server/db/client.ts';")).toEqual([]);
    expect(rules('app/features/accounts/page-session.ts', "import type { AccountsService } from '#server/features/accounts/accounts.service.ts';")).toEqual([]);
    expect(rules('server/app.ts', "import { appContext } from '#app/context.ts';")).toEqual(['server code imports only types from app/']);
    expect(rules('server/app.ts', "import type { AppLoadContext } from '#app/context.ts';")).toEqual([]);
  });

  it("keeps the app's shared infrastructure free of features", () => {
    expect(rules('app/lib/api-client.ts', "import { session } from '../features/accounts/session.ts';")).toHaveLength(1);
    expect(rules('app/ui/button.tsx', "import { Logo } from '../shell/logo.tsx';")).toHaveLength(1);
  });

  it('keeps HTTP out of services, repositories and server/lib; routes may use it', () => {
    expect(rules('server/features/catalogue/catalogue.service.ts', "import { AppError } from '#server/http/errors.ts';")).toHaveLength(1);
    expect(rules('server/features/accounts/access-tokens.service.ts', "import type { ApiRouter } from '#server/http/api-router.ts';")).toHaveLength(1);
    expect(rules('server/lib/rate-limiter.ts', "import { statusOf } from '../http/errors.ts';")).toHaveLength(1);
    expect(rules('server/features/catalogue/catalogue.service.ts', "import { AppError } from '#server/lib/app-error.ts';")).toEqual([]);
    expect(rules('server/features/catalogue/catalogue.routes.ts', "import type { ApiRouter } from '#server/http/api-router.ts';")).toEqual([]);
  });
});
