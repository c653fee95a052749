// Placeholder until its issue lands; the route exists so links and the router are complete.
export function ParticipantFeedbackPage() {
  return (
    <main className="page">
      <h1>Partner feedback</h1>
      <p>Coming soon.</p>
    </main>
  );
}
