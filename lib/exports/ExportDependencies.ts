import type { BackfillDependencies } from './backfill/ports';

/**
 * Everything a use case may touch. Handlers build it once per container (lib/runtime). Each
 * concept declares the part it uses (`RecordDependencies` … `BackfillDependencies`), each part
 * extending the one below it, so this is the widest of them.
 */
export type ExportDependencies = BackfillDependencies;
