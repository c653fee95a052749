// Placeholder until its issue lands; the route exists so links and the router are complete.
export function WelcomePage() {
  return (
    <main className="page">
      <h1>Welcome</h1>
      <p>Coming soon.</p>
    </main>
  );
}
