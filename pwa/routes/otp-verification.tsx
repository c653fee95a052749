// Placeholder until its issue lands; the route exists so links and the router are complete.
export function OtpVerificationPage() {
  return (
    <main className="page">
      <h1>Verify your mobile</h1>
      <p>Coming soon.</p>
    </main>
  );
}
