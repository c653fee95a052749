export function SyncStatus({ pending }: { pending: number }) {
  const text =
    pending === 0 ? "All choices saved" : `${pending} ${pending === 1 ? "choice" : "choices"} waiting to sync`;
  return (
    <p className={`sync-status ${pending === 0 ? "saved" : "waiting"}`} role="status" aria-live="polite">
      {text}
    </p>
  );
}
