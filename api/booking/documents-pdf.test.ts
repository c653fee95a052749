import { PDFParse } from "pdf-parse";
import { describe, expect, it } from "vitest";
import type { Document } from "../../db/schema.ts";
import { pinClock } from "../../test/clock.ts";
import { documentFileName, renderDocumentPdf } from "./documents-pdf.ts";

/** The PDF's text as a reader would copy it. */
async function textOf(bytes: Uint8Array): Promise<string> {
  // A copy: pdf.js takes over the buffer it is given.
  const parser = new PDFParse({ data: bytes.slice() });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

// 2026-12-01 23:30 UTC is 2 December at 10:30 AM in Sydney (AEDT): the date is the venue's day.
const ISSUED = Date.UTC(2026, 11, 1, 23, 30);
// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(ISSUED);

const sale: Document = {
  id: 1,
  number: "INV-000123",
  kind: "invoice",
  bookingId: 7,
  paymentIntentId: "pi_test",
  refundId: null,
  relatesTo: null,
  issuedAt: ISSUED,
  sellerName: "Harbour Nights Pty Ltd",
  sellerAbn: "51 824 753 556",
  sellerAddress: "1 George Street, Sydney NSW 2000",
  gstRegistered: true,
  eventName: "Harbour Lights Mixer",
  eventStartsAt: Date.UTC(2026, 11, 12, 8, 0),
  eventTimeZone: "Australia/Sydney",
  lines: [
    { label: "Ticket: Harbour Lights Mixer", amountCents: 5500 },
    { label: "Early-bird discount", amountCents: -550 },
    { label: "Promo code SAVE10", amountCents: -495 },
  ],
  totalCents: 4455,
  gstCents: 405,
  buyerName: null,
  buyerEmail: null,
};

describe("the documents as PDFs", () => {
  it("a tax invoice shows the words, the seller and ABN, the date, each line, the total and the GST", async () => {
    const text = await textOf(await renderDocumentPdf(sale));
    for (const expected of [
      "Tax invoice",
      "Harbour Nights Pty Ltd",
      "ABN 51 824 753 556",
      "1 George Street, Sydney NSW 2000",
      "INV-000123",
      "2026-12-02",
      "Harbour Lights Mixer",
      "2026-12-12 07:00 PM AEDT",
      "Ticket: Harbour Lights Mixer",
      "$55.00",
      "Early-bird discount",
      "-$5.50",
      "Promo code SAVE10",
      "-$4.95",
      "$44.55",
      "Total price includes GST",
      "$4.05",
    ]) {
      expect(text).toContain(expected);
    }
    expect(documentFileName(sale)).toBe("INV-000123.pdf");
  });

  it("a tax invoice of A$1,000 or more names the buyer by name and email; a smaller one names nobody", async () => {
    const large: Document = {
      ...sale,
      lines: [{ label: "Ticket: Harbour Lights Gala", amountCents: 120_000 }],
      totalCents: 120_000,
      gstCents: 10_909,
      buyerName: "Priya Nair",
      buyerEmail: "priya.nair@example.com",
    };
    const text = await textOf(await renderDocumentPdf(large));
    expect(text).toMatch(/Buyer\s+Priya Nair/);
    expect(text).toContain("priya.nair@example.com");
    expect(text).toContain("$1200.00");
    expect(await textOf(await renderDocumentPdf(sale))).not.toContain("Buyer");
  });

  it("a receipt says Receipt and nothing of GST", async () => {
    const text = await textOf(await renderDocumentPdf({ ...sale, kind: "receipt", gstRegistered: false, gstCents: 0 }));
    expect(text).toContain("Receipt");
    expect(text).toContain("ABN 51 824 753 556");
    expect(text).not.toMatch(/GST|Tax invoice/);
  });

  it("an adjustment note names itself, its number, the invoice it adjusts, the refund and its GST", async () => {
    const note: Document = {
      ...sale,
      id: 2,
      number: "INV-000130",
      kind: "adjustment",
      refundId: "re_1",
      relatesTo: "INV-000123",
      lines: [{ label: "Refund of INV-000123: Harbour Lights Mixer", amountCents: 2200 }],
      totalCents: 2200,
      gstCents: 200,
    };
    const text = await textOf(await renderDocumentPdf(note));
    for (const expected of ["Adjustment note", "INV-000130", "INV-000123", "$22.00", "GST", "$2.00"]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain("Tax invoice");
  });

  it("the same row gives the same bytes, dated when it was written", async () => {
    const [a, b] = [await renderDocumentPdf(sale), await renderDocumentPdf(sale)];
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(Buffer.from(a).toString("latin1")).toContain("(D:20261201233000Z)");
  });
});
