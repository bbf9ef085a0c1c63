import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { AccessTokensRepository } from './features/accounts/access-tokens.repository.ts';
import { AccessTokensService } from './features/accounts/access-tokens.service.ts';
import { CatalogueImportRepository } from './features/catalogue/catalogue-import.repository.ts';
import { CatalogueRepository } from './features/catalogue/catalogue.repository.ts';
import { CatalogueService } from './features/catalogue/catalogue.service.ts';
import { type Clock, systemClock } from './lib/clock.ts';

/** Everything the API and the page loaders call, built once at start-up. */
export interface Services {
  database: DatabaseHandle;
  clock: Clock;
  tokens: AccessTokensService;
  catalogue: CatalogueService;
  catalogueImport: CatalogueImportRepository;
}

export function createServices(database: DatabaseHandle, _config: Config, clock: Clock = systemClock): Services {
  const { db } = database;
  return {
    database,
    clock,
    tokens: new AccessTokensService(new AccessTokensRepository(db), clock),
    catalogue: new CatalogueService(new CatalogueRepository(db)),
    catalogueImport: new CatalogueImportRepository(db, clock),
  };
}
