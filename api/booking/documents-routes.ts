import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { bookings, type Document } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { isValidLinkToken } from "../lib/capability.ts";
import { Forbidden, NotFound } from "../lib/errors.ts";
import { requireGuest } from "../lib/guest-session.ts";
import { apiRouter, errors, file, z } from "../lib/openapi.ts";
import { idParam } from "../lib/validate.ts";
import { adjustmentOfPayment, saleDocumentOfBooking } from "./documents.ts";
import { pdfDownload } from "./documents-pdf.ts";

// A guest's own receipt, tax invoice or adjustment note (docs/decisions/032-invoices.md): from the
// saved ticket (its link token proves the booking) and from /me (the session's number must be the
// booking's). The organiser's download is admin-routes.ts's.

/** Which of a booking's documents: its receipt or tax invoice (the default), or its refund's adjustment note. */
const documentKind = z.enum(["invoice", "adjustment"]).default("invoice");

const pdfReply = file(
  "application/pdf",
  'The PDF, `Content-Disposition: attachment; filename="INV-000123.pdf"`, `Cache-Control: no-store`',
);

const invoiceRoute = createRoute({
  method: "get",
  path: "/invoice",
  summary:
    "The receipt or tax invoice (or, with kind=adjustment, the adjustment note) of a saved ticket's booking, as a PDF; the ticket link's bookingId and t are the proof",
  description: [
    "The **Download invoice** link of a saved ticket.",
    "",
    "- **Who:** anyone with the ticket link's `bookingId` and `t` (the ticket's capability, as",
    "  `ticket-status` takes it).",
    "- **Query:** `bookingId`: id (booking); `t`: the ticket link's token; `kind` (optional): `invoice`",
    "  (the default: the receipt or tax invoice) or `adjustment` (the refund's adjustment note).",
    "- **200:** the PDF.",
    "",
    "Every payment that bought a seat gets one document, written in the transaction that marked the",
    "booking paid: a **Tax invoice** when `GST_REGISTERED=1`, a **Receipt** otherwise; a refund of it",
    "(whole or partial: the organiser's Refund, a cancelled event, a guest's cancel) gets one",
    "**Adjustment note** against its number. All share one gapless sequence, `INV-000123`, in order of",
    "writing; a document is never changed and is kept 5 years (docs/decisions/032-invoices.md). A",
    "payment refunded at once because it found no seat bought nothing and gets neither. Each of `GET /api/invoice`,",
    "`GET /api/me-invoice/{bookingId}` and `GET /api/admin-invoice/{number}` answers the PDF:",
    '`application/pdf`, `Content-Disposition: attachment; filename="INV-000123.pdf"`,',
    "`Cache-Control: no-store`. A document names the seller, the event and the prices, never the buyer.",
  ].join("\n"),
  request: { query: z.object({ bookingId: idParam(z), t: z.string().min(1).max(200), kind: documentKind }) },
  responses: {
    200: pdfReply,
    ...errors("get", ["invalid_request", "invalid_link", "not_found"], {
      403: "`invalid_link` (checked before anything is read).",
      404: "`not_found` (no such document for this booking: not paid, paid before documents existed, or never refunded).",
    }),
  },
});

const meInvoiceRoute = createRoute({
  method: "get",
  path: "/me-invoice/{bookingId}",
  summary:
    "The receipt or tax invoice (or, with kind=adjustment, the adjustment note) of one of the signed-in guest's bookings, as a PDF",
  description: [
    "The **Download invoice** link of a night on `/me`.",
    "",
    "- **Who:** guest session of the booking's number.",
    "- **Path:** `bookingId`: id (booking). **Query:** `kind` (optional): `invoice` (default) or `adjustment`.",
    "- **200:** the PDF.",
  ].join("\n"),
  request: { params: z.object({ bookingId: idParam(z) }), query: z.object({ kind: documentKind }) },
  responses: {
    200: pdfReply,
    ...errors("get", ["invalid_request", "guest_session_required", "forbidden", "not_found"], {
      403: "`forbidden` (no such booking, or another number's: answered alike, as `cancel-booking` does).",
      404: "`not_found` (the booking has no such document).",
    }),
  },
});

/** A booking's document of that kind, or 404 (not paid, paid before documents, or never refunded). */
function bookingDocument(deps: AppDeps, bookingId: number, kind: "invoice" | "adjustment"): Document {
  const sale = saleDocumentOfBooking(deps.db, bookingId);
  const doc = kind === "invoice" || !sale ? sale : adjustmentOfPayment(deps.db, sale.paymentIntentId);
  if (!doc) throw NotFound(kind === "invoice" ? "this booking has no receipt or invoice" : "no adjustment note");
  return doc;
}

export const documentsRoutes = (deps: AppDeps) =>
  apiRouter()
    .openapi(invoiceRoute, async (c) => {
      const { bookingId, t, kind } = c.req.valid("query");
      // Checked before the database is read, so a wrong token learns nothing about which bookings exist.
      if (!isValidLinkToken(deps.env, "ticket", [bookingId], t)) {
        throw Forbidden("this ticket link is not valid", "invalid_link");
      }
      return pdfDownload(bookingDocument(deps, bookingId, kind));
    })
    .openapi({ ...meInvoiceRoute, middleware: requireGuest(deps) }, async (c) => {
      const { bookingId } = c.req.valid("param");
      const { kind } = c.req.valid("query");
      const booking = deps.db.select({ phone: bookings.phone }).from(bookings).where(eq(bookings.id, bookingId)).get();
      // No booking and another number's booking answer alike, as cancel-booking does.
      if (!booking || booking.phone !== c.var.guest.phone) throw Forbidden("this is not a booking of your number");
      return pdfDownload(bookingDocument(deps, bookingId, kind));
    });
