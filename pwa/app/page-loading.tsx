/** What shows while a page's code arrives (the header and footer stay). */
export function PageLoading() {
  return (
    <main className="page" aria-busy="true">
      <p className="empty">Loading…</p>
    </main>
  );
}
