/** What a started part needs undone on stop; run in reverse order of starting. */
export type Closer = () => Promise<void>;

/** Closes everything, last started first; one part that fails to close does not keep the rest open. */
export async function closeInReverse(closers: Closer[]): Promise<void> {
  for (const close of closers.splice(0).reverse()) {
    try {
      await close();
    } catch {
      // Closing the rest matters more than one part that failed to close.
    }
  }
}

/** Waits for the work to settle, or for `timeoutMs`, whichever comes first. */
export async function settleWithin(work: readonly Promise<unknown>[], timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([Promise.allSettled(work), timeout]);
  clearTimeout(timer);
}
