import { eq } from "drizzle-orm";
import { PDFParse } from "pdf-parse";
import { expect } from "vitest";
import { bookings, promoCodes } from "../../db/schema.ts";
import { type TestServer, verifiedPhoneCookie } from "../api-harness.ts";
import { insertHeldBooking } from "../fixtures.ts";
import { createCheckout } from "./booking-flow.ts";

// What the invoice and email suites share: a PDF's text, read back as a reader would, and a seat
// checked out over HTTP with an early bird and a promo code on its price.

/** A GST-registered seller with a real (checksum-valid) ABN, as the environment gives it. */
export const GST_SELLER = {
  BUSINESS_NAME: "Harbour Nights Pty Ltd",
  BUSINESS_ABN: "53004085616",
  BUSINESS_ADDRESS: "1 George Street, Sydney NSW 2000",
  GST_REGISTERED: "1",
};

/** The text of a PDF, read back with pdf-parse (pdf.js). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  // A copy: pdf.js takes over the buffer it is given.
  const parser = new PDFParse({ data: bytes.slice() });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** A seat held straight in the database, then checked out and paid through the real calls. */
export async function paidOverHttp(
  s: TestServer,
  eventId: number,
  price?: { list: number; earlyBird: number; promo: number },
) {
  const { db } = s.deps;
  const held = insertHeldBooking(db, eventId, { now: s.deps.now() });
  if (price) {
    const code = db.insert(promoCodes).values({ eventId, code: "SAVE10", percentOff: 10 }).returning().get();
    db.update(bookings)
      .set({
        listPriceCents: price.list,
        earlyBirdCents: price.earlyBird,
        discountCents: price.earlyBird + price.promo,
        promoCodeId: code.id,
        amountCents: price.list - price.earlyBird - price.promo,
      })
      .where(eq(bookings.id, held.bookingId))
      .run();
  }
  const session = await createCheckout(
    s.url,
    { userID: held.userId, eventID: eventId },
    verifiedPhoneCookie(s.deps.env, held.phone, s.deps.now()),
  );
  expect(session.status).toBe(200);
  return { ...held, sessionId: session.sessionId ?? "" };
}
