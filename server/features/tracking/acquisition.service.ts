import type { AcquisitionRepository, AcquisitionRow } from './acquisition.repository.ts';

/** The acquisition report (sign-ups and paid orders per campaign): the `report` command's and the Console's. */
export class AcquisitionService {
  readonly #repository: AcquisitionRepository;
  constructor(repository: AcquisitionRepository) {
    this.#repository = repository;
  }

  /** Rows since a day (YYYY-MM-DD, UTC), the campaigns with most sign-ups first. */
  report(since: string): Promise<AcquisitionRow[]> {
    return this.#repository.report(since);
  }
}
