import { audFromCents } from "../../common/money.ts";
import { formatVenueTime, utcToWallClock } from "../../common/time-zone.ts";
import type { Db } from "../../db/client.ts";
import type { Document } from "../../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import { documentById } from "./documents.ts";

/**
 * A document as a PDF (docs/decisions/032-invoices.md): a pure function of its row, in pdfkit's
 * built-in Helvetica (no font is fetched). The PDF's dates are the document's `issuedAt`, so the
 * same row always gives the same bytes, and a copy sent by email is the one downloaded later.
 */

/** What the document calls itself, as the law names it (docs/guide/receipts.md). */
export function documentTitle(doc: Pick<Document, "kind">): string {
  if (doc.kind === "invoice") return "Tax invoice";
  if (doc.kind === "receipt") return "Receipt";
  return "Adjustment note";
}

/** `INV-000123.pdf`: the attachment's and the download's file name. */
export const documentFileName = (doc: Pick<Document, "number">) => `${doc.number}.pdf`;

/** The day a document was written, on its event's venue clock (the date it carries). */
export const documentDate = (doc: Pick<Document, "issuedAt" | "eventTimeZone">) =>
  utcToWallClock(doc.issuedAt, doc.eventTimeZone).date;

const LEFT = 56;
const RIGHT = 539; // A4 is 595 points wide; 56-point margins.

export async function renderDocumentPdf(doc: Document): Promise<Uint8Array> {
  const title = documentTitle(doc);
  // Loaded at the first PDF, not at every start (docs/decisions/061-ci-time.md).
  const { default: PDFDocument } = await import("pdfkit");
  const pdf = new PDFDocument({
    size: "A4",
    margin: LEFT,
    info: {
      Title: `${title} ${doc.number}`,
      Author: doc.sellerName,
      Creator: doc.sellerName,
      Producer: "pdfkit",
      CreationDate: new Date(doc.issuedAt),
      ModDate: new Date(doc.issuedAt),
    },
  });
  const chunks: Buffer[] = [];
  pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve, reject) => {
    pdf.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    pdf.on("error", reject);
  });

  pdf.font("Helvetica-Bold").fontSize(22).text(title, LEFT, LEFT);
  pdf.moveDown(0.5);
  pdf.font("Helvetica-Bold").fontSize(12).text(doc.sellerName);
  pdf.font("Helvetica").fontSize(10);
  pdf.text(`ABN ${doc.sellerAbn}`);
  pdf.text(doc.sellerAddress);
  pdf.moveDown();

  const facts: [string, string][] = [
    [doc.kind === "adjustment" ? "Adjustment note number" : `${title} number`, doc.number],
    ["Date", documentDate(doc)],
  ];
  if (doc.kind === "adjustment" && doc.relatesTo) facts.push(["Adjusts", doc.relatesTo]);
  // A tax invoice of A$1,000 or more names its buyer (BUYER_NAMED_FROM_CENTS, documents.ts).
  if (doc.buyerName) facts.push(["Buyer", doc.buyerName]);
  if (doc.buyerEmail) facts.push(["Buyer's email", doc.buyerEmail]);
  facts.push(["Event", doc.eventName], ["Event date", formatVenueTime(doc.eventStartsAt, doc.eventTimeZone)]);
  for (const [label, value] of facts) row(pdf, label, value, false);
  pdf.moveDown();

  pdf.font("Helvetica-Bold").text(doc.kind === "adjustment" ? "Amount refunded" : "Items", LEFT);
  pdf
    .moveTo(LEFT, pdf.y + 2)
    .lineTo(RIGHT, pdf.y + 2)
    .stroke();
  pdf.moveDown(0.5);
  for (const line of doc.lines) row(pdf, line.label, signed(line.amountCents), false);
  pdf
    .moveTo(LEFT, pdf.y + 2)
    .lineTo(RIGHT, pdf.y + 2)
    .stroke();
  pdf.moveDown(0.5);
  row(pdf, doc.kind === "adjustment" ? "Total refunded" : "Total", audFromCents(doc.totalCents), true);
  if (doc.gstRegistered) {
    pdf.moveDown(0.5);
    if (doc.kind === "adjustment") {
      row(pdf, "GST included in the amount refunded", audFromCents(doc.gstCents), false);
    } else {
      pdf.font("Helvetica").text("Total price includes GST", LEFT);
      row(pdf, "GST", audFromCents(doc.gstCents), false);
    }
  }
  pdf.end();
  return done;
}

/** A discount as `-$5.00`, a price as `$50.00`. */
const signed = (cents: number) => (cents < 0 ? `-${audFromCents(-cents)}` : audFromCents(cents));

/** A label on the left and its value on the right, on one line. */
function row(pdf: PDFKit.PDFDocument, label: string, value: string, bold: boolean) {
  const y = pdf.y;
  pdf.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(10);
  pdf.text(label, LEFT, y, { width: 330 });
  const below = pdf.y;
  pdf.text(value, LEFT + 340, y, { width: RIGHT - LEFT - 340, align: "right" });
  pdf.x = LEFT;
  pdf.y = Math.max(below, pdf.y);
}

/**
 * The PDF of a stored document, for the download routes and the emails that attach it. Rendered
 * from the row each time: the row never changes, and the render is deterministic.
 */
export async function documentPdf(deps: { db: Db }, documentId: number): Promise<Uint8Array> {
  const doc = documentById(deps.db, documentId);
  if (!doc) throw NotFound("no such document");
  return renderDocumentPdf(doc);
}

/** A document as every download route answers it: a PDF attachment named by its number, never cached. */
export async function pdfDownload(doc: Document): Promise<Response> {
  const bytes = await renderDocumentPdf(doc);
  return new Response(new Uint8Array(bytes), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${documentFileName(doc)}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
