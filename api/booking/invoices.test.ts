import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, documents, events, refunds } from "../../db/schema.ts";
import {
  browserClient,
  suiteTestServer,
  type TestServer,
  verifiedPhoneCookie,
  withTestServer,
} from "../../test/api-harness.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../../test/fixtures.ts";
import { createCheckout, pay, signedInOnMe } from "../../test/suites/booking-flow.ts";
import { GST_SELLER, paidOverHttp, pdfText as textOf } from "../../test/suites/invoices.ts";
import { linkToken } from "../lib/capability.ts";
import { applyRetention } from "../ops/retention.ts";
import { finishUnfinishedRefunds, refundPayment } from "../organiser/refunds.ts";
import { cancelBooking } from "./cancel-booking.ts";
import { DOCUMENT_KEEP_MS } from "./documents.ts";
import { documentPdf } from "./documents-pdf.ts";
import { completeCheckout } from "./payment-completion.ts";

// Receipts, tax invoices and adjustment notes (docs/decisions/032-invoices.md): one document per
// paid booking, written with the payment and numbered without gaps; one adjustment note per refund
// of it; never updated; kept 5 years, past the night's erasure; each person sees only their own.

const ADMIN_PASSWORD = "correct horse battery staple";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SELLER = GST_SELLER;

const server = suiteTestServer({
  env: { ...SELLER, OTP_MAX_PER_ADDRESS: "100000", OTP_MAX_PER_PHONE: "1000" },
});

const number = (doc: { number: string }) => Number(doc.number.slice(4));

async function adminBrowser(s: TestServer) {
  const admin = browserClient(s.url);
  expect((await admin.postJson("/api/admin-login", { password: ADMIN_PASSWORD })).status).toBe(200);
  return admin;
}

const docsOf = (s: TestServer, bookingId: number) =>
  s.deps.db.select().from(documents).where(eq(documents.bookingId, bookingId)).orderBy(documents.id).all();

function expectPdfDownload(response: Response, fileName: string) {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${fileName}"`);
  expect(response.headers.get("cache-control")).toBe("no-store");
}

describe("a paid booking's tax invoice", () => {
  it("is written with the payment, shows the law's facts and each discount, and the organiser, ticket and /me get the same PDF", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { name: "Harbour Lights Mixer" });
    const held = await paidOverHttp(server, event.id, { list: 5500, earlyBird: 550, promo: 495 });
    expect(await pay(server.url, held.sessionId)).toBe(303);

    const [invoice, ...others] = docsOf(server, held.bookingId);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({
      kind: "invoice",
      totalCents: 4455,
      gstCents: 405,
      sellerAbn: "53 004 085 616",
      gstRegistered: true,
      eventName: "Harbour Lights Mixer",
      lines: [
        { label: "Ticket: Harbour Lights Mixer", amountCents: 5500 },
        { label: "Early-bird discount", amountCents: -550 },
        { label: "Promo code SAVE10", amountCents: -495 },
      ],
    });
    expect(invoice?.number).toMatch(/^INV-\d{6}$/);
    const name = `${invoice?.number}.pdf`;

    // The organiser: by number, from the participants list and the CSV.
    const admin = await adminBrowser(server);
    const byAdmin = await admin.get(`/api/admin-invoice/${invoice?.number}`);
    expectPdfDownload(byAdmin, name);
    const bytes = new Uint8Array(await byAdmin.arrayBuffer());
    const text = await textOf(bytes);
    for (const expected of [
      "Tax invoice",
      "Harbour Nights Pty Ltd",
      "ABN 53 004 085 616",
      invoice?.number ?? "?",
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
    // No buyer: a tax invoice under $1,000 needs none, and documents outlive the guest's details.
    for (const personal of [held.name, held.email, held.phone, held.phone.slice(3)]) {
      expect(text).not.toContain(personal);
    }
    const participants = (await (await admin.get(`/api/get-event-user/${event.id}`)).json()) as {
      invoiceNumber: string | null;
    }[];
    expect(participants.map((p) => p.invoiceNumber)).toEqual([invoice?.number]);
    const csv = await (await admin.get(`/api/admin-event/${event.id}/participants.csv`)).text();
    expect(csv.split("\n")[0]).toContain(",invoice_number,");
    expect(csv.split("\n")[1]).toContain(`,${invoice?.number},`);

    // The saved ticket's capability.
    const t = linkToken(env, "ticket", held.bookingId);
    const byTicket = await fetch(`${server.url}/api/invoice?bookingId=${held.bookingId}&t=${t}`);
    expectPdfDownload(byTicket, name);
    expect(Buffer.from(await byTicket.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    // The /me session of the booking's number.
    const me = await signedInOnMe(server.url, held.phone);
    const byMe = await me.get(`/api/me-invoice/${held.bookingId}`);
    expectPdfDownload(byMe, name);
    expect(Buffer.from(await byMe.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    // The export for the emails gives the same bytes.
    expect(Buffer.from(await documentPdf(server.deps, invoice?.id ?? 0)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("is served to nobody else: another ticket's token, another number's session, no session, a host", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const mine = await paidOverHttp(server, event.id);
    const theirs = await paidOverHttp(server, event.id);
    expect(await pay(server.url, mine.sessionId)).toBe(303);
    expect(await pay(server.url, theirs.sessionId)).toBe(303);

    // My ticket's token does not open their booking's invoice, nor does a made-up one.
    const myToken = linkToken(env, "ticket", mine.bookingId);
    for (const query of [`bookingId=${theirs.bookingId}&t=${myToken}`, `bookingId=${mine.bookingId}&t=nope`]) {
      const refused = await fetch(`${server.url}/api/invoice?${query}`);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ success: false, error: expect.any(String), code: "invalid_link" });
    }
    // My session: their booking is 403 exactly like a booking that does not exist.
    const me = await signedInOnMe(server.url, mine.phone);
    for (const id of [theirs.bookingId, 987_654]) {
      const refused = await me.get(`/api/me-invoice/${id}`);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ success: false, error: expect.any(String), code: "forbidden" });
    }
    // A paid booking never refunded has no adjustment note.
    expect((await me.get(`/api/me-invoice/${mine.bookingId}?kind=adjustment`)).status).toBe(404);
    const anonymous = await fetch(`${server.url}/api/me-invoice/${mine.bookingId}`);
    expect(anonymous.status).toBe(401);
    const [invoice] = docsOf(server, theirs.bookingId);
    expect((await fetch(`${server.url}/api/admin-invoice/${invoice?.number}`)).status).toBe(401);
    const admin = await adminBrowser(server);
    expect((await admin.get("/api/admin-invoice/INV-987654")).status).toBe(404);
    expect((await admin.get("/api/admin-invoice/INV-12")).status).toBe(400);
    // A booking paid before documents existed (a fixture here) has none to give.
    const [old] = insertPaidBookings(db, event.id, 1);
    const oldToken = linkToken(env, "ticket", old?.bookingId ?? 0);
    expect((await fetch(`${server.url}/api/invoice?bookingId=${old?.bookingId}&t=${oldToken}`)).status).toBe(404);
  });
});

describe("a tax invoice of A$1,000 or more", () => {
  it("carries the buyer's name and email (the booking holds no ABN); one under A$1,000 carries neither", async () => {
    const { db, env } = server.deps;
    const paidAt = async (priceCents: number, buyer: { name: string; email: string }) => {
      const event = await insertEvent(db, env.UPLOADS_DIR, { name: "Harbour Lights Gala", priceCents });
      const held = insertHeldBooking(db, event.id, { now: server.deps.now(), ...buyer });
      const session = await createCheckout(
        server.url,
        { userID: held.userId, eventID: event.id },
        verifiedPhoneCookie(env, held.phone, server.deps.now()),
      );
      expect(session.status).toBe(200);
      expect(await pay(server.url, session.sessionId ?? "")).toBe(303);
      const [invoice] = docsOf(server, held.bookingId);
      return { invoice, text: await textOf(await documentPdf(server.deps, invoice?.id ?? 0)) };
    };

    const large = await paidAt(100_000, { name: "Priya Nair", email: "priya.nair@example.com" });
    expect(large.invoice).toMatchObject({
      kind: "invoice",
      totalCents: 100_000,
      buyerName: "Priya Nair",
      buyerEmail: "priya.nair@example.com",
    });
    expect(large.text).toMatch(/Buyer\s+Priya Nair/);
    expect(large.text).toContain("priya.nair@example.com");
    expect(large.text).toContain("$1000.00");

    const small = await paidAt(99_999, { name: "Rohan Mehta", email: "rohan.mehta@example.com" });
    expect(small.invoice).toMatchObject({ kind: "invoice", totalCents: 99_999, buyerName: null, buyerEmail: null });
    for (const personal of ["Buyer", "Rohan Mehta", "rohan.mehta@example.com"])
      expect(small.text).not.toContain(personal);
  });
});

describe("numbering", () => {
  it("30 payments at once over HTTP take 30 consecutive numbers: no gap, no duplicate", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 40 });
    const held = [];
    for (let i = 0; i < 30; i++) held.push(await paidOverHttp(server, event.id));
    const before = db.select().from(documents).all().map(number);
    const statuses = await Promise.all(held.map((h) => pay(server.url, h.sessionId)));
    expect(statuses).toEqual(Array(30).fill(303));
    const written = held.map((h) => docsOf(server, h.bookingId));
    expect(written.every((list) => list.length === 1)).toBe(true);
    const numbers = written.map((list) => number(list[0] ?? { number: "INV-0" })).sort((a, b) => a - b);
    const first = Math.max(0, ...before) + 1;
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => first + i));
    // In order of payment: a later number was never paid before an earlier one.
    const paidAt = new Map(
      db
        .select()
        .from(bookings)
        .where(eq(bookings.eventId, event.id))
        .all()
        .map((b) => [b.id, b.paidAt ?? 0]),
    );
    const byNumber = written.map((list) => list[0]!).sort((a, b) => number(a) - number(b));
    for (let i = 1; i < byNumber.length; i++) {
      expect(paidAt.get(byNumber[i]!.bookingId)!).toBeGreaterThanOrEqual(paidAt.get(byNumber[i - 1]!.bookingId)!);
    }
  });
});

describe("refunds", () => {
  it("the organiser's Refund issues one adjustment note against the invoice, with its GST", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const held = await paidOverHttp(server, event.id);
    expect(await pay(server.url, held.sessionId)).toBe(303);
    const pi = db.select().from(bookings).where(eq(bookings.id, held.bookingId)).get()?.paymentIntentId ?? "";
    const admin = await adminBrowser(server);
    for (let i = 0; i < 2; i++) expect((await admin.postJson("/api/refund", { paymentIntentId: pi })).status).toBe(200);
    const [invoice, note, ...more] = docsOf(server, held.bookingId);
    expect(more).toEqual([]);
    expect(note).toMatchObject({
      kind: "adjustment",
      relatesTo: invoice?.number,
      paymentIntentId: pi,
      totalCents: 4500,
      gstCents: 409,
      lines: [{ label: `Refund of ${invoice?.number}: Test Mixer`, amountCents: 4500 }],
    });
    expect(number(note!)).toBeGreaterThan(number(invoice!));
    const me = await signedInOnMe(server.url, held.phone);
    const download = await me.get(`/api/me-invoice/${held.bookingId}?kind=adjustment`);
    expectPdfDownload(download, `${note?.number}.pdf`);
    const text = await textOf(new Uint8Array(await download.arrayBuffer()));
    for (const expected of ["Adjustment note", note?.number ?? "?", invoice?.number ?? "?", "$45.00", "GST", "$4.09"]) {
      expect(text).toContain(expected);
    }
    // The invoice is still the invoice: refunds add a note, they never change what was written.
    expect((await me.get(`/api/me-invoice/${held.bookingId}`)).status).toBe(200);
  });

  it("a guest's partial cancel issues a note for the part refunded", async () => {
    const { db, env } = server.deps;
    // Inside the full-refund cut-off, half back.
    const event = await insertEvent(db, env.UPLOADS_DIR, {
      startsAt: Date.now() + 10 * HOUR,
      cancelFullRefundHours: 48,
      cancelLaterPercent: 50,
    });
    const held = await paidOverHttp(server, event.id);
    expect(await pay(server.url, held.sessionId)).toBe(303);
    const me = await signedInOnMe(server.url, held.phone);
    const cancelled = await me.postJson("/api/cancel-booking", { eventID: event.id, userID: held.userId });
    expect(await cancelled.json()).toEqual({ refundCents: 2250, creditCents: 0, status: "refunded" });
    const [, note] = docsOf(server, held.bookingId);
    expect(note).toMatchObject({ kind: "adjustment", totalCents: 2250, gstCents: 205 });
  });

  it("a payment that found no seat is refunded at once with neither an invoice nor a note", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 1 });
    const held = await paidOverHttp(server, event.id);
    // The hold lapses and someone else takes the only seat; then the payment arrives (a webhook).
    db.update(bookings)
      .set({ holdExpiresAt: server.deps.now() - 1 })
      .where(eq(bookings.id, held.bookingId))
      .run();
    insertPaidBookings(db, event.id, 1);
    const done = await completeCheckout(server.deps, {
      sessionId: held.sessionId,
      paymentIntentId: `pi_local_noseat_${held.bookingId}`,
    });
    expect(done.outcome).toBe("refunded");
    expect(db.select().from(refunds).where(eq(refunds.bookingId, held.bookingId)).all()).toHaveLength(1);
    expect(docsOf(server, held.bookingId)).toEqual([]);
  });

  it("a payment racing refunds, cancels and a second payment: exactly one invoice and at most one note", async () => {
    const { db, env } = server.deps;
    const deps = server.deps;
    const outcomes = new Set<number>();
    for (let round = 0; round < 6; round++) {
      const event = await insertEvent(db, env.UPLOADS_DIR, { startsAt: Date.now() + 20 * DAY });
      const held = await paidOverHttp(server, event.id);
      const pi = `pi_local_race_${held.bookingId}`;
      const second = `pi_local_race_second_${held.bookingId}`;
      const pay = () => completeCheckout(deps, { sessionId: held.sessionId, paymentIntentId: pi });
      const refund = () => refundPayment(deps, pi);
      const cancel = () => cancelBooking(deps, held.phone, { eventId: event.id, userId: held.userId });
      const payAgain = () =>
        completeCheckout(deps, { sessionId: held.sessionId, paymentIntentId: second, bookingId: held.bookingId });
      const finish = () => finishUnfinishedRefunds(deps, deps.now() + DAY);
      // Each round starts the same callers in another order, so the payment comes first, between or last.
      const callers = [pay, pay, refund, refund, cancel, payAgain, finish, refund, pay];
      const order = callers.map((_, i) => (i + round * 4) % callers.length);
      await Promise.allSettled(order.map((i) => callers[i]!()));
      await finishUnfinishedRefunds(deps, deps.now() + DAY);

      const docs = docsOf(server, held.bookingId);
      const sales = docs.filter((d) => d.kind !== "adjustment");
      const notes = docs.filter((d) => d.kind === "adjustment");
      const booking = db.select().from(bookings).where(eq(bookings.id, held.bookingId)).get();
      const refundOfSale = db
        .select()
        .from(refunds)
        .where(eq(refunds.paymentIntentId, sales[0]?.paymentIntentId ?? "-"))
        .all();
      expect(sales, `round ${round}`).toHaveLength(1);
      expect(notes.length, `round ${round}`).toBeLessThanOrEqual(1);
      // A note exactly when the invoiced payment was refunded, and never for the second payment.
      expect(notes.length, `round ${round}`).toBe(refundOfSale.length);
      expect(
        notes.every((n) => n.relatesTo === sales[0]?.number && n.paymentIntentId === sales[0]?.paymentIntentId),
      ).toBe(true);
      expect(booking?.status).toMatch(/^(paid|refunded)$/);
      outcomes.add(notes.length);
    }
    // Some orders refunded the payment (a note), others came before it was paid (none).
    expect([...outcomes].sort()).toEqual([0, 1]);
  });
});

describe("immutable and kept", () => {
  it("no code updates a document row", () => {
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !name.endsWith(".test.ts")) sources.push(path);
      }
    };
    for (const dir of ["api", "db", "common", "scripts"]) walk(dir);
    const offenders = sources.filter((path) => {
      const text = readFileSync(path, "utf8");
      return /\.update\(\s*documents\s*\)/.test(text) || /update\s+[`"']?documents\b/i.test(text);
    });
    expect(offenders).toEqual([]);
    // The database refuses too (a trigger): documents are only inserted, and deleted after 5 years.
    const [any] = server.deps.db.select().from(documents).limit(1).all();
    expect(any).toBeDefined();
    expect(() =>
      server.deps.db.$client.prepare("UPDATE documents SET total_cents = 1 WHERE id = ?").run(any?.id),
    ).toThrow(/documents are immutable/);
  });

  it("erasing a night's guests keeps its receipts; the retention job deletes them 5 years after they were written", async () => {
    // Not GST-registered: receipts, without GST.
    await withTestServer(async (s) => {
      const { db, env } = s.deps;
      const event = await insertEvent(db, env.UPLOADS_DIR);
      const held = await paidOverHttp(s, event.id);
      expect(await pay(s.url, held.sessionId)).toBe(303);
      const [receipt] = docsOf(s, held.bookingId);
      expect(receipt).toMatchObject({ kind: "receipt", gstCents: 0, gstRegistered: false });
      expect(await textOf(await documentPdf(s.deps, receipt?.id ?? 0))).not.toContain("GST");

      const deps = { db, uploadsDir: env.UPLOADS_DIR, retentionDays: env.RETENTION_DAYS };
      const erasedAt = event.startsAt + 2 * HOUR + 91 * DAY;
      expect((await applyRetention(deps, erasedAt)).erasedEvents).toEqual([event.id]);
      expect(db.select().from(events).where(eq(events.id, event.id)).get()?.personalDataErasedAt).not.toBeNull();
      expect(docsOf(s, held.bookingId)).toEqual([receipt]);
      // Nothing of the guest in the row itself.
      const row = JSON.stringify(receipt);
      for (const personal of [held.name, held.email, held.phone]) expect(row).not.toContain(personal);
      const admin = await adminBrowser(s);
      expectPdfDownload(await admin.get(`/api/admin-invoice/${receipt?.number}`), `${receipt?.number}.pdf`);

      const issued = receipt?.issuedAt ?? 0;
      expect((await applyRetention(deps, issued + DOCUMENT_KEEP_MS - HOUR)).deletedDocuments).toBe(0);
      expect(docsOf(s, held.bookingId)).toHaveLength(1);
      expect((await applyRetention(deps, issued + DOCUMENT_KEEP_MS + HOUR)).deletedDocuments).toBe(1);
      expect(docsOf(s, held.bookingId)).toEqual([]);
      // Numbers are never reused: the next payment continues the sequence.
      const next = await paidOverHttp(s, (await insertEvent(db, env.UPLOADS_DIR)).id);
      expect(await pay(s.url, next.sessionId)).toBe(303);
      expect(number(docsOf(s, next.bookingId)[0]!)).toBe(number(receipt!) + 1);
    });
  });
});
