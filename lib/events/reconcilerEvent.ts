/** What the reconciler's schedule sends to the reconcile function. */
export interface ReconcilerEvent {
  source: 'reconciler';
}

export function isReconcilerEvent(event: unknown): event is ReconcilerEvent {
  return (
    typeof event === 'object' && event !== null && (event as { source?: unknown }).source === 'reconciler'
  );
}
