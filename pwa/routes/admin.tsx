// Placeholder until its issue lands; the route exists so links and the router are complete.
export function AdminPage() {
  return (
    <main className="page">
      <h1>Admin</h1>
      <p>Coming soon.</p>
    </main>
  );
}
