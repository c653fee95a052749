import { guarded } from "../../lib/admin-session.ts";
import { api, type Ok, send } from "../../lib/api.ts";
import { type EventRowsState, useEventRows } from "./use-event-rows.ts";

// An event's promo codes for the organiser (docs/api.md, Prices and promo codes): the list with
// each code's uses, a new code, and **Disable**.

export type PromoCodeRow = Ok<(typeof api)["admin-event"][":id"]["promo-codes"]["$get"]>["promoCodes"][number];
export type NewPromoCode = Parameters<(typeof api)["promo-codes"]["$post"]>[0]["json"];

export const getPromoCodes = (eventId: number) =>
  guarded(send(api["admin-event"][":id"]["promo-codes"].$get({ param: { id: String(eventId) } })));
export const createPromoCode = (code: NewPromoCode) => guarded(send(api["promo-codes"].$post({ json: code })));
export const disablePromoCode = (id: number) => guarded(send(api["disable-promo-code"].$post({ json: { id } })));

export type PromoCodesState = EventRowsState<PromoCodeRow>;

const rowsOf = (data: { promoCodes: PromoCodeRow[] }) => data.promoCodes;

export const usePromoCodes = (eventId: number | null) => useEventRows(eventId, getPromoCodes, rowsOf);

/** `20% off` or `$5.00 off`. */
export const discountLabel = (row: Pick<PromoCodeRow, "percentOff" | "amountOff">) =>
  row.percentOff !== null ? `${row.percentOff}% off` : `$${(row.amountOff ?? 0).toFixed(2)} off`;

/**
 * `3 of 10`, or just `3` with no limit; `2 of 1 · 1 paid over the limit` when a checkout that
 * outlived its hold was paid after the last use went (charged what it showed, decision 023).
 */
export const usesLabel = (row: Pick<PromoCodeRow, "uses" | "maxUses" | "overruns">) => {
  const uses = row.maxUses === null ? String(row.uses) : `${row.uses} of ${row.maxUses}`;
  return row.overruns > 0 ? `${uses} · ${row.overruns} paid over the limit` : uses;
};
