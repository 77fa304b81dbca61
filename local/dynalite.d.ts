// dynalite ships no types; only what localDynamoDb.ts uses.
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** LevelDB directory; in-memory when omitted. */
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
    verbose?: boolean;
  }

  function dynalite(options?: DynaliteOptions): Server;

  export = dynalite;
}
