import { PrivacyPolicy } from "../features/booking/components/privacy-policy.tsx";
import "../features/booking/booking.css";

export function PrivacyPage() {
  return (
    <main className="page">
      <h1>Privacy</h1>
      <PrivacyPolicy />
    </main>
  );
}
