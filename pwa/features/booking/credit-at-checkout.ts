import { formatPrice } from "../events/index.ts";

// **Use my credit** on the step before paying (issue 52, docs/decisions/057-credit.md). Pure, so the
// words are tested without a page.

const dollars = (cents: number) => formatPrice(cents / 100);

/** `Use my credit ($45.00)`: the box's label, with the number's whole balance. */
export const creditBoxLabel = (balanceCents: number) => `Use my credit (${dollars(balanceCents)})`;

/** What the credit does to this price, said under the box. */
export function creditNote(useCredit: boolean, balanceCents: number, priceCents: number): string {
  if (!useCredit) return `Your card pays the full ${dollars(priceCents)}; your credit stays for another night.`;
  if (balanceCents >= priceCents)
    return `Your credit pays the whole ${dollars(priceCents)}: no card needed, and your ticket comes at once.`;
  return `Your credit pays ${dollars(balanceCents)}; your card pays the other ${dollars(priceCents - balanceCents)}.`;
}
