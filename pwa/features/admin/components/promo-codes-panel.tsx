import { type FormEvent, useState } from "react";
import { FormMessage, type Message } from "../../../components/ui/form-message.tsx";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { formatAtVenue } from "../format.ts";
import {
  createPromoCode,
  disablePromoCode,
  discountLabel,
  type PromoCodeRow,
  usePromoCodes,
  usesLabel,
} from "../promo-codes.ts";

const FOR_LABELS = { "": "Anyone", female: "Women", male: "Men" } as const;

/** The new code's fields as typed. */
type Draft = {
  code: string;
  kind: "percent" | "amount";
  value: string;
  maxUses: string;
  validUntil: string;
  gender: "" | "male" | "female";
};

/** **Promo codes** of one event: each code, its uses and **Disable**, and a form for a new one. */
export function PromoCodesPanel(props: { eventId: number; zone: string; readOnly: boolean }) {
  const { state, reload } = usePromoCodes(props.eventId);
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const [draft, setDraft] = useState<Draft>({
    code: "",
    kind: "percent",
    value: "",
    maxUses: "",
    validUntil: "",
    gender: "",
  });

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    const value = Number(draft.value);
    const reply = await createPromoCode({
      eventID: props.eventId,
      code: draft.code.trim(),
      ...(draft.kind === "percent" ? { percentOff: value } : { amountOff: value }),
      maxUses: draft.maxUses.trim() ? Number(draft.maxUses) : null,
      validUntil: draft.validUntil || null,
      gender: draft.gender || null,
    }).catch(() => null);
    setBusy(false);
    if (reply?.ok) {
      setMessage({ kind: "ok", text: `Code ${reply.data.promoCode.code} added.` });
      setDraft({ ...draft, code: "", value: "", maxUses: "", validUntil: "" });
      void reload();
    } else setMessage({ kind: "error", text: reply?.data.error ?? "Could not add the code. Please try again." });
  };

  const disable = async (id: number, code: string) => {
    const reply = await disablePromoCode(id).catch(() => null);
    setMessage(
      reply?.ok ? { kind: "ok", text: `Code ${code} disabled.` } : { kind: "error", text: "Could not disable it." },
    );
    void reload();
  };

  return (
    <section className="admin-promo-codes" aria-labelledby="admin-promo-codes-title">
      <h3 id="admin-promo-codes-title">Promo codes</h3>
      {state.status === "loading" ? <p role="status">Loading the promo codes...</p> : null}
      {state.status === "error" ? <ErrorNotice message="Couldn't load the promo codes." onRetry={reload} /> : null}
      {state.status === "ready" && state.rows.length === 0 ? <p className="empty">No promo codes yet.</p> : null}
      {state.status === "ready" && state.rows.length > 0 ? (
        <PromoCodesTable rows={state.rows} zone={props.zone} onDisable={disable} />
      ) : null}
      {props.readOnly ? null : (
        <form className="admin-form-grid" onSubmit={add}>
          <NewCodeFields draft={draft} setDraft={setDraft} />
          <div className="span-2">
            <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
              Add code
            </button>
          </div>
        </form>
      )}
      <FormMessage message={message} />
    </section>
  );
}

/** Each code of the event: its discount, uses, who it is for, when it expires, and **Disable**. */
function PromoCodesTable({
  rows,
  zone,
  onDisable,
}: {
  rows: PromoCodeRow[];
  zone: string;
  onDisable(id: number, code: string): void;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1)
    <section className="admin-table-wrap" tabIndex={0} aria-label="Promo codes table">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Discount</th>
            <th scope="col">Uses</th>
            <th scope="col">For</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span className="sr-only">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{row.code}</td>
              <td>{discountLabel(row)}</td>
              <td>{usesLabel(row)}</td>
              <td>{FOR_LABELS[row.gender ?? ""]}</td>
              <td>{row.validUntil ? formatAtVenue(row.validUntil, zone) : "Never"}</td>
              <td>
                {row.disabled ? (
                  "Disabled"
                ) : (
                  <button
                    type="button"
                    className="button"
                    aria-label={`Disable ${row.code}`}
                    onClick={() => onDisable(row.id, row.code)}
                  >
                    Disable
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The form's fields for a new code. */
function NewCodeFields({ draft, setDraft }: { draft: Draft; setDraft(draft: Draft): void }) {
  return (
    <>
      <div className="field">
        <label htmlFor="promo-new-code">New code</label>
        <input
          id="promo-new-code"
          required
          pattern="[A-Za-z0-9_\-]{2,32}"
          maxLength={32}
          autoComplete="off"
          value={draft.code}
          onChange={(e) => setDraft({ ...draft, code: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="promo-new-kind">Discount type</label>
        <select
          id="promo-new-kind"
          value={draft.kind}
          onChange={(e) => setDraft({ ...draft, kind: e.target.value as "percent" | "amount" })}
        >
          <option value="percent">Percent off</option>
          <option value="amount">Amount off (AUD)</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="promo-new-value">{draft.kind === "percent" ? "Percent off" : "Amount off (AUD)"}</label>
        <input
          id="promo-new-value"
          type="number"
          required
          min={draft.kind === "percent" ? 1 : 0.01}
          max={draft.kind === "percent" ? 100 : 100_000}
          step={draft.kind === "percent" ? 1 : 0.01}
          value={draft.value}
          onChange={(e) => setDraft({ ...draft, value: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="promo-new-max">Maximum uses (optional)</label>
        <input
          id="promo-new-max"
          type="number"
          min={1}
          step={1}
          value={draft.maxUses}
          onChange={(e) => setDraft({ ...draft, maxUses: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="promo-new-until">Valid until (venue time, optional)</label>
        <input
          id="promo-new-until"
          type="datetime-local"
          value={draft.validUntil}
          onChange={(e) => setDraft({ ...draft, validUntil: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="promo-new-gender">For</label>
        <select
          id="promo-new-gender"
          value={draft.gender}
          onChange={(e) => setDraft({ ...draft, gender: e.target.value as "" | "male" | "female" })}
        >
          <option value="">Anyone</option>
          <option value="female">Women</option>
          <option value="male">Men</option>
        </select>
      </div>
    </>
  );
}
