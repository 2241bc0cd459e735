/**
 * The `docparse-rag` exit codes. Stable: scripts branch on them.
 */
export const EXIT = {
  /** Everything worked. */
  ok: 0,
  /** The command ran but something failed: a document (ingest), the parse, the store. */
  failed: 1,
  /** Bad arguments or options: nothing was done. */
  usage: 2,
  /** Interrupted (SIGINT); the store is consistent. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
