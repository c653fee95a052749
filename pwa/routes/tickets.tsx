// Placeholder until its issue lands; the route exists so links and the router are complete.
export function TicketsPage() {
  return (
    <main className="page">
      <h1>My tickets</h1>
      <p>Coming soon.</p>
    </main>
  );
}
