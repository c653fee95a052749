// Placeholder until its issue lands; the route exists so links and the router are complete.
export function SuccessPage() {
  return (
    <main className="page">
      <h1>Payment</h1>
      <p>Coming soon.</p>
    </main>
  );
}
