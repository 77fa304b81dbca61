import type { TablePartitions } from './ports';

/**
 * For an engine that finds partitions in the object keys (`spot=…/date=…/`), as DuckDB does over
 * the local runtime's archive: nothing to register. Also where no catalog is configured.
 */
export const PATH_TABLE_PARTITIONS: TablePartitions = {
  register: async () => {},
};
