import { beforeAll, describe, expect, it } from "vitest";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { callRoute, HOUR, hostAccessHelpers, MINUTE, PASSWORD, staffCallBody } from "../../test/suites/host-access.ts";
import { guestBrowser, insertMember, sessionBrowser } from "../../test/suites/team.ts";

// Roles on every call (issue 49, docs/decisions/050-the-team.md): every operation of the OpenAPI
// document × the owner, each team role, a host link, a guest (sdt_me) and nobody, against one table
// of rules below. An operation missing from the table fails the suite, so a new route cannot ship
// without saying who may call it. Each call is real HTTP with a fresh session, so a call that ends
// sessions (sign-out-everywhere, admin-logout) changes nothing for the next.

const CALLERS = ["owner", "manager", "finance", "door", "host", "guest", "nobody"] as const;
type Caller = (typeof CALLERS)[number];

/**
 * Who may make a call:
 * - `public`: anyone (a sign-in, a public read, the development tools): nobody is refused;
 * - `proof`: the call's own proof (a link's token, a verified phone, a provider's signature), which
 *   no session stands in for: every caller gets the same class of answer (none has the proof here);
 * - `guest`: the guest's own /me session; `host`: a host link's own session (what it opens);
 * - `owner`, `managers`, `money`, `reads`, `signedIn`: organiser sessions, as api/lib/roles.ts's ACCESS;
 * - `staff`: the door and the rounds: the owner, a Manager, a Door member on the event's day, a host
 *   of the event.
 */
type Rule = "public" | "proof" | "guest" | "host" | "owner" | "managers" | "money" | "reads" | "signedIn" | "staff";

const OPEN: Record<Exclude<Rule, "proof">, readonly Caller[]> = {
  public: CALLERS,
  guest: ["guest"],
  host: ["host"],
  owner: ["owner"],
  managers: ["owner", "manager"],
  money: ["owner", "manager", "finance"],
  reads: ["owner", "manager", "finance", "door"],
  signedIn: ["owner", "manager", "finance", "door"],
  staff: ["owner", "manager", "door", "host"],
};

/** Every operation's rule, by operationId. */
const RULES: Record<string, Rule> = {
  // booking
  getEvents: "public",
  getEvent: "public",
  images: "public",
  uploadsImages: "public",
  sendOtp: "public",
  verifyOtp: "public",
  keptDetails: "proof",
  keptPhoto: "proof",
  saveUserDetails: "proof",
  devOutbox: "public",
  me: "guest",
  meData: "guest",
  meDeleteDetails: "guest",
  getMeConsent: "guest",
  postMeConsent: "guest",
  cancelBooking: "guest",
  transferTicket: "guest",
  getGuestChoice: "proof",
  postGuestChoice: "proof",
  meLogout: "public",
  joinWaitlist: "proof",
  leaveWaitlist: "proof",
  claimOffer: "proof",
  createCheckoutSession: "proof",
  checkoutSession: "proof",
  sendConfirmation: "proof",
  stripeWebhook: "proof",
  ticket: "proof",
  ticketStatus: "proof",
  // Open to anyone; staff (staffOf) get more.
  getEventDetails: "public",
  confirmBooking: "public",
  devCheckout: "public",
  devCheckoutPay: "public",
  devCheckoutCancel: "public",
  promoCodes: "managers",
  adminEventPromoCodes: "managers",
  disablePromoCode: "managers",
  applyPromo: "proof",
  invoice: "proof",
  meInvoice: "guest",
  // night
  adminEventRoster: "staff",
  checkIn: "staff",
  undoCheckIn: "staff",
  openDoors: "staff",
  getParticipants: "proof",
  saveFeedback: "proof",
  getFeedback: "proof",
  shareContact: "proof",
  adminEventRounds: "staff",
  planRounds: "staff",
  runRounds: "staff",
  markLeft: "staff",
  roomAnnouncement: "staff",
  adminEventKeepApart: "managers",
  keepApart: "managers",
  adminEventMessageGuests: "staff",
  messageGuests: "staff",
  myRounds: "proof",
  roundEvents: "staff",
  adminEventRatings: "staff",
  releaseResults: "managers",
  adminSaveFeedback: "staff",
  // organiser: signing in
  adminLogin: "public",
  adminLogout: "public",
  adminSession: "public",
  teamLogin: "public",
  teamSetup: "public",
  teamSetupTotp: "public",
  // Passkeys (decision 051): signing in with one is a sign-in. Adding one takes a set-up link's token,
  // or (token null) the signed-in owner or member, a host or a guest 403 and nobody 401:
  // api/organiser/passkeys.test.ts walks those callers.
  passkeyLoginOptions: "public",
  passkeyLogin: "public",
  passkeyRegisterOptions: "proof",
  passkeyRegister: "proof",
  hostLogin: "proof",
  hostSession: "host",
  // organiser: the team and the owner's own settings
  getTeam: "owner",
  postTeam: "owner",
  teamRemove: "owner",
  teamResend: "owner",
  signOutEverywhere: "signedIn",
  ownerSecurity: "owner",
  ownerTotp: "owner",
  ownerTotpConfirm: "owner",
  ownerSecondFactor: "owner",
  // organiser: events, money, host links, invitations
  adminEvents: "reads",
  adminEvent: "reads",
  saveEvent: "managers",
  updateEvent: "managers",
  updateEventImage: "managers",
  cancelEvent: "money",
  moveEventGuests: "money",
  adminEventWaitlist: "managers",
  adminEventSummary: "money",
  adminEventParticipantsCsv: "money",
  startEvent: "managers",
  endEvent: "managers",
  getEventUser: "money",
  refund: "money",
  giveCredit: "money",
  adminInvoice: "money",
  hostLinks: "managers",
  adminEventHostLinks: "managers",
  revokeHostLink: "managers",
  adminEventActivity: "managers",
  announcementsPreview: "managers",
  announcements: "managers",
  adminEventAnnouncements: "managers",
  reportsMoney: "money",
  reportsGst: "money",
  reportsSeats: "money",
  reportsReturning: "money",
  reportsNights: "money",
  reportsMatches: "money",
  reportsPrices: "money",
  reportsInvitations: "money",
  // messaging
  getConfirmEmailConsent: "proof",
  postConfirmEmailConsent: "proof",
  getUnsubscribe: "proof",
  postUnsubscribe: "proof",
  twilioInbound: "proof",
  devInboundSms: "public",
  devMailbox: "public",
  // ops (the document and its page are open outside production; the suite runs as `test`)
  healthz: "public",
  publicConfig: "public",
  openapiJson: "public",
  docs: "public",
  docsScalarJs: "public",
  // wallet (this suite's server has no wallet keys, so every caller gets its 404; the signed link and
  // the /me session are walked in api/wallet/apple-pass.test.ts)
  walletApple: "proof",
  walletGoogle: "proof",
  walletStatus: "money",
  // wallet: Apple's PassKit web service; a pass's own token is the proof, and the list and the log
  // are open (the device library identifier is the list's secret; without Apple configured, 404).
  postPasskitV1DevicesRegistrations: "proof",
  deletePasskitV1DevicesRegistrations: "proof",
  passkitV1DevicesRegistrations: "public",
  passkitV1Passes: "proof",
  passkitV1Log: "public",
};

/** The class each caller must get: `allowed` is anything but 401 and 403. */
type Outcome = "allowed" | "401" | "403";

function expected(rule: Exclude<Rule, "proof">, caller: Caller): Outcome {
  if (OPEN[rule].includes(caller)) return "allowed";
  // No session at all, or a guest's where a staff session is needed: 401. A guest-only call is 401
  // to anyone without the guest's session.
  if (caller === "nobody" || caller === "guest" || rule === "guest" || rule === "host") return "401";
  return "403";
}

const outcome = (status: number): Outcome => (status === 401 ? "401" : status === 403 ? "403" : "allowed");

type Operation = { operationId?: string };
type Document = { paths: Record<string, Record<string, Operation>> };

const server = suiteTestServer({ env: { ADMIN_LOGIN_MAX_FAILURES: "100000", OTP_MAX_PER_ADDRESS: "100000" } });
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const { newLink, hostPhone } = hostAccessHelpers(server, () => admin);

/** Every operation of the document: `{ id, call }` with the call as `POST /api/check-in`. */
async function operations() {
  const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Document;
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      id: operation.operationId ?? `${method} ${path}`,
      call: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`,
    })),
  );
}

/** The status of one call, its body read or (a stream) let go. */
async function statusOf(client: BrowserClient, call: string, eventId: number, body?: Record<string, unknown>) {
  const response = await callRoute(client, call, eventId, body);
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) await response.body?.cancel();
  else await response.arrayBuffer();
  return response.status;
}

describe("every call × every role", () => {
  it("has a rule for every operation of the OpenAPI document, and none for an operation that is gone", async () => {
    const ids = (await operations()).map((o) => o.id);
    expect(
      ids.filter((id) => !(id in RULES)),
      "operations without a rule in RULES",
    ).toEqual([]);
    expect(
      Object.keys(RULES).filter((id) => !ids.includes(id)),
      "RULES for operations the document no longer has",
    ).toEqual([]);
  });

  // About a hundred calls × seven callers, each real HTTP with a fresh session.
  it("answers each caller as the table says: allowed, or 401 / 403", { timeout: 120_000 }, async () => {
    const { db, env } = server.deps;
    const now = server.deps.now();
    // Tonight's night (the door's calls), and another event for every other call, so that a call
    // that changes its event (cancel, end) changes nothing the door's calls depend on.
    const tonight = await insertEvent(db, env.UPLOADS_DIR, {
      name: "Tonight",
      status: "started",
      startsAt: now - 30 * MINUTE,
    });
    const other = await insertEvent(db, env.UPLOADS_DIR, { name: "Next Month", startsAt: now + 30 * 24 * HOUR });
    const attendees = insertPaidBookings(db, tonight.id, 2, { paidAt: now - 24 * HOUR });
    const { phone: host } = await hostPhone(await newLink(tonight.id));
    const members = {
      manager: insertMember(db, "manager").id,
      finance: insertMember(db, "finance").id,
      door: insertMember(db, "door").id,
    };
    // The guest holds the booking whose id the calls' paths name, so /me-invoice/{bookingId} is theirs.
    const guestPhone = (attendees.find((a) => a.bookingId === other.id) ?? attendees[0]!).phone;
    const browserOf = (caller: Caller): BrowserClient => {
      if (caller === "owner") return sessionBrowser(server, null);
      if (caller === "host") return host;
      if (caller === "guest") return guestBrowser(server, guestPhone);
      if (caller === "nobody") return browserClient(server.url);
      return sessionBrowser(server, members[caller]);
    };
    const staffBody = staffCallBody(tonight.id, [attendees[0]!.userId, attendees[1]!.userId], now);
    // Bodies that make a call harmless to the callers after it: no member's id, no own sessions' end.
    const BODIES: Record<string, Record<string, unknown>> = {
      teamRemove: { id: 987_654 },
      teamResend: { id: 987_654 },
      signOutEverywhere: {},
    };

    const answers: Record<string, string> = {};
    const wanted: Record<string, string> = {};
    for (const { id, call } of await operations()) {
      const rule = RULES[id];
      if (rule === undefined) continue;
      const staff = rule === "staff";
      const got: string[] = [];
      const want: string[] = [];
      for (const caller of CALLERS) {
        const status = await statusOf(
          browserOf(caller),
          call,
          staff ? tonight.id : other.id,
          staff ? staffBody : BODIES[id],
        );
        got.push(`${caller} ${outcome(status)}`);
        want.push(`${caller} ${rule === "proof" ? "same" : expected(rule, caller)}`);
      }
      // A proof's call: whatever the answer without the proof, every caller gets the same.
      const first = got[0]?.split(" ")[1];
      answers[`${id} (${rule})`] =
        rule === "proof" && got.every((g) => g.endsWith(` ${first}`))
          ? CALLERS.map((caller) => `${caller} same`).join(", ")
          : got.join(", ");
      wanted[`${id} (${rule})`] = want.join(", ");
    }
    expect(Object.keys(answers).length).toBeGreaterThan(70);
    expect(answers).toEqual(wanted);
  });

  it("says each organiser call's roles in its description, from the same rule the code checks", async () => {
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    const roles = (method: string, path: string) =>
      /- \*\*Roles:\*\* ([^\n]*)/.exec(document.paths[path]?.[method]?.description ?? "")?.[1];
    expect(roles("post", "/api/refund")).toBe("Owner, Manager, Finance; any other role: 403 `forbidden`.");
    expect(roles("post", "/api/save-event")).toBe("Owner, Manager; any other role: 403 `forbidden`.");
    expect(roles("get", "/api/team")).toBe("Owner; any other role: 403 `forbidden`.");
    expect(roles("get", "/api/admin-events")).toBe("Owner, Manager, Finance, Door; any other role: 403 `forbidden`.");
    expect(roles("post", "/api/check-in")).toMatch(
      /^Owner, Manager, Door \(on the event's day\); a host link's session/,
    );
    expect(roles("get", "/api/get-events")).toBeUndefined();
  });

  it("refuses a Door member every door and rounds call of an event on another day (403), as a host of another night", async () => {
    const { db, env } = server.deps;
    const now = server.deps.now();
    const later = await insertEvent(db, env.UPLOADS_DIR, { name: "Next Week", startsAt: now + 7 * 24 * HOUR });
    const attendees = insertPaidBookings(db, later.id, 2, { paidAt: now - HOUR });
    const door = insertMember(db, "door").id;
    const body = staffCallBody(later.id, [attendees[0]!.userId, attendees[1]!.userId], now);
    const staffCalls = (await operations()).filter((o) => RULES[o.id] === "staff");
    expect(staffCalls.length).toBeGreaterThanOrEqual(14);
    const answers: Record<string, number> = {};
    for (const { id, call } of staffCalls)
      answers[id] = await statusOf(sessionBrowser(server, door), call, later.id, body);
    expect(answers).toEqual(Object.fromEntries(staffCalls.map((o) => [o.id, 403])));
    // The same member's manager-like calls stay closed, whatever the day.
    const refund = await sessionBrowser(server, door).postJson("/api/refund", { paymentIntentId: "pi_x" });
    expect(refund.status).toBe(403);
  });
});
