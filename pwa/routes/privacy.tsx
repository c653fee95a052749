import { PrivacyPolicy } from "../features/booking/components/privacy-policy.tsx";
import "../features/booking/booking.css";

export function PrivacyPage() {
  return (
    <main className="page">
      <h1>Privacy</h1>
      <PrivacyPolicy />
      <section aria-labelledby="privacy-team">
        <h2 id="privacy-team">The organiser's team</h2>
        <p>
          For each person on the organiser's team we keep their name, email, role and when they last signed in. Their
          password is kept only as a one-way hash, their authenticator app's key is encrypted, and their recovery codes
          and set-up link are kept only as hashes: nobody, the owner included, can read them back. When someone is
          removed from the team, every way they signed in is deleted at once; their name and role stay in the activity
          log so that it still says who did what.
        </p>
      </section>
    </main>
  );
}
