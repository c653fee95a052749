// Placeholder until its issue lands; the route exists so links and the router are complete.
export function EventFeedbackPage() {
  return (
    <main className="page">
      <h1>Event feedback</h1>
      <p>Coming soon.</p>
    </main>
  );
}
