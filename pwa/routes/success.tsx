import { PaymentSuccess } from "../features/payment/components/payment-success.tsx";
import { useSuccessParams } from "../features/payment/confirm-payment.ts";

export function SuccessPage() {
  const params = useSuccessParams();
  return (
    <main className="page">
      <h1>Your ticket</h1>
      <PaymentSuccess params={params} />
    </main>
  );
}
