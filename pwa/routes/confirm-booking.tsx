// Placeholder until its issue lands; the route exists so links and the router are complete.
export function ConfirmBookingPage() {
  return (
    <main className="page">
      <h1>Confirm booking</h1>
      <p>Coming soon.</p>
    </main>
  );
}
