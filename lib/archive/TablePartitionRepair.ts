import type { PartitionCatalog, StoredPartitions } from './ports';

/** Spots whose stored and registered partitions one run compares (two listings each). */
export const PARTITION_REPAIR_SPOTS_PER_RUN = 5;
/** Partitions one run registers at most (two BatchCreatePartition calls). */
export const PARTITION_REPAIR_PARTITIONS_PER_RUN = 200;

export interface TablePartitionRepairOptions {
  catalog: PartitionCatalog;
  stored: StoredPartitions;
  spotsPerRun?: number;
  partitionsPerRun?: number;
}

/** What one run of the repair did. */
export interface PartitionRepairResult {
  /** Spots whose partitions were compared. */
  spotsChecked: number;
  /** Partitions the catalog did not hold and now does. */
  registered: number;
  /** Why the run stopped early: the catalog or the bucket failed, and a later run starts again. */
  failure?: string;
}

/** One run's tally: `sent` counts partitions sent to the catalog, new or not. */
interface RepairRun {
  result: PartitionRepairResult;
  sent: number;
}

/**
 * Makes the catalog hold every partition the bucket holds, whatever registered them before: a
 * database of another name, a registration lost or never made. Each run compares, for a few spots,
 * the days stored under `tables/comments/spot=<spotId>/` with those the catalog holds, and
 * registers the missing ones; a spot is done once nothing is missing. It is kept for the life of
 * its process (a Lambda container), which checks each spot once: the spot it is archiving first,
 * then every other spot in the bucket, a few per run. Bounded per run, idempotent (an existing
 * partition is success), and it never throws: a failure is answered, and the spot stays to check.
 */
export class TablePartitionRepair {
  readonly #catalog: PartitionCatalog;
  readonly #stored: StoredPartitions;
  readonly #spotsPerRun: number;
  readonly #partitionsPerRun: number;
  /** Spots with nothing missing, as this process saw them. */
  readonly #checked = new Set<string>();
  /** Every spot in the bucket, listed at the first run that has room for other spots. */
  #bucketSpots: string[] | undefined;

  constructor(options: TablePartitionRepairOptions) {
    this.#catalog = options.catalog;
    this.#stored = options.stored;
    this.#spotsPerRun = options.spotsPerRun ?? PARTITION_REPAIR_SPOTS_PER_RUN;
    this.#partitionsPerRun = options.partitionsPerRun ?? PARTITION_REPAIR_PARTITIONS_PER_RUN;
  }

  /** One bounded run, `spotId` (the spot just archived) first. Never throws. */
  async repair(spotId: string): Promise<PartitionRepairResult> {
    const result: PartitionRepairResult = { spotsChecked: 0, registered: 0 };
    const run = { result, sent: 0 };
    try {
      if (!this.#checked.has(spotId)) await this.#repairSpot(spotId, run);
      if (this.#hasRoom(run)) {
        this.#bucketSpots ??= await this.#stored.spots();
        for (const other of this.#bucketSpots) {
          if (!this.#hasRoom(run)) break;
          if (!this.#checked.has(other)) await this.#repairSpot(other, run);
        }
      }
    } catch (error) {
      // The catalog or the bucket is failing: what is missing stays missing until a later run.
      result.failure = error instanceof Error ? error.message : String(error);
    }
    return result;
  }

  async #repairSpot(spotId: string, run: RepairRun): Promise<void> {
    run.result.spotsChecked += 1;
    const [stored, registered] = await Promise.all([
      this.#stored.dates(spotId),
      this.#catalog.registeredDates(spotId),
    ]);
    const held = new Set(registered);
    const missing = stored.filter((date) => !held.has(date)).sort();
    const batch = missing.slice(0, this.#partitionsPerRun - run.sent);
    run.sent += batch.length;
    if (batch.length > 0) run.result.registered += await this.#catalog.registerDates(spotId, batch);
    // A spot with more missing than this run had room for is taken up again by the next run.
    if (batch.length === missing.length) this.#checked.add(spotId);
  }

  #hasRoom(run: RepairRun): boolean {
    return run.result.spotsChecked < this.#spotsPerRun && run.sent < this.#partitionsPerRun;
  }
}
