// Placeholder until its issue lands; the route exists so links and the router are complete.
export function ConfirmationPage() {
  return (
    <main className="page">
      <h1>Confirmation</h1>
      <p>Coming soon.</p>
    </main>
  );
}
