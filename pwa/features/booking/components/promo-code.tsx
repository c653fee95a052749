import { type FormEvent, useState } from "react";
import { formatPrice } from "../../events/index.ts";
import { applyPromo } from "../apply-promo.ts";
import { type AppliedPromo, readAppliedPromo, rememberAppliedPromo } from "../held-booking.ts";

/**
 * **Promo code** and **Apply** above **Proceed to Payment**. Once a code is taken, the new total is
 * the one the checkout will charge: the server's, from the booking (docs/decisions/023-prices-and-ages.md).
 */
export function PromoCode(props: { userID: number; eventID: number }) {
  const [applied, setApplied] = useState<AppliedPromo | null>(() => readAppliedPromo(props.userID, props.eventID));
  const [code, setCode] = useState(applied?.code ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const apply = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) {
      setError("Enter a promo code.");
      return;
    }
    setBusy(true);
    setError(null);
    const outcome = await applyPromo({ userID: props.userID, eventID: props.eventID, code: code.trim() });
    setBusy(false);
    if (outcome.kind === "applied") {
      const promo = { code: outcome.code, amount: outcome.amount, discount: outcome.discount };
      rememberAppliedPromo(props.userID, props.eventID, promo);
      setApplied(promo);
    } else setError(outcome.error);
  };

  return (
    <form className="promo-code" onSubmit={apply} noValidate>
      <div className="field">
        <label htmlFor="promo-code">Promo code</label>
        <div className="promo-code-row">
          <input
            id="promo-code"
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            maxLength={64}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <button type="submit" className="button" disabled={busy} aria-busy={busy}>
            Apply
          </button>
        </div>
      </div>
      <p className="message error" role="alert">
        {error}
      </p>
      <p className="promo-total" role="status">
        {applied ? (
          <>
            New total: <strong>{formatPrice(applied.amount)}</strong> with code {applied.code}
          </>
        ) : null}
      </p>
    </form>
  );
}
