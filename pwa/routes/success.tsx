import { useSearchParams } from "react-router-dom";
import { PaymentSuccess } from "../features/payment/components/payment-success.tsx";
import { readSuccessParams } from "../features/payment/confirm-payment.ts";

export function SuccessPage() {
  const [search] = useSearchParams();
  return (
    <main className="page">
      <h1>Your ticket</h1>
      <PaymentSuccess params={readSuccessParams(search)} />
    </main>
  );
}
