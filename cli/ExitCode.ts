/** The process exit codes of the CLI; `--help` documents them, scripts branch on them. */
export const ExitCode = {
  SUCCESS: 0,
  USAGE: 2,
  EXPORT_FAILED: 3,
  EXPORT_ABORTED: 4,
  API_ERROR: 5,
  API_UNREACHABLE: 6,
  /** The archive is not there to download: still PENDING, FAILED, or the export did not complete. */
  ARCHIVE_UNAVAILABLE: 7,
  /** A downloaded file did not match its recorded SHA-256 (nothing of it was kept), or could not be written. */
  DOWNLOAD_FAILED: 8,
  /** `query`: the engine failed the query: bad SQL, a limit reached (its message on stderr). */
  QUERY_FAILED: 9,
  /** `coverage`: the range has gap hours (windows given up on); the report says which and why. */
  COVERAGE_GAPS: 10,
  /** `query`: not a read-only question about the archive (a write, DDL, ATTACH, SET, or a file outside it). */
  QUERY_REFUSED: 11,
  /** `fleet`: a spot is behind its freshness target (data stopped arriving); gaps alone are 10. */
  FLEET_STALE: 12,
  /** `erase`: the erasure FAILED (its reason on stderr); asking for it again takes it up again. */
  ERASURE_FAILED: 13,
  // 128 + SIGINT, what a shell reports for a Ctrl-C'd process.
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
