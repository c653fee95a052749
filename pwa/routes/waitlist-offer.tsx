import { useSearchParams } from "react-router-dom";
import { OfferClaim } from "../features/booking/components/offer-claim.tsx";
import "../features/booking/booking.css";

export function WaitlistOfferPage() {
  const [params] = useSearchParams();
  return (
    <main className="page">
      <h1>Your waitlist offer</h1>
      <OfferClaim o={params.get("o") ?? ""} t={params.get("t") ?? ""} />
    </main>
  );
}
