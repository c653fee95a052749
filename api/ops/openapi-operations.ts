import type { OpenAPIHono } from "@hono/zod-openapi";
import { COOKIE as VERIFIED_PHONE_COOKIE } from "../booking/booking-cookie.ts";
import { COOKIE as ORGANISER_COOKIE } from "../lib/admin-session.ts";
import { COOKIE as GUEST_COOKIE } from "../lib/guest-session.ts";
import { COOKIE as HOST_COOKIE } from "../lib/host-session.ts";

// What /api/openapi.json says about each operation besides its schemas: its operationId, its tag (the
// room its routes file lives in) and the security it takes. Set here, in one place, on the routes as
// api/app.ts mounts them, so a routes file declares only its call (docs/decisions/041).

/** The rooms of api/, each the tag of the operations its *-routes.ts files declare. */
export const ROOMS = {
  booking:
    "Events and their pictures, one-time codes and the details form, a guest's own nights (/me), the waitlist, payments and tickets, promo codes, receipts.",
  night: "The night itself: the door, the rounds and their timer, feedback taps, results.",
  organiser:
    "The organiser's sign-in and calls: events, guests and refunds, host links and activity, invitations, the team and its roles.",
  messaging:
    "Texts and emails and their answers: STOP and START, email consent, one-click unsubscribe, the local mailbox.",
  ops: "Health, the public configuration, this document and its reference page.",
  wallet:
    "The ticket in Apple Wallet and Google Wallet: the .pkpass, the save link, and Apple's PassKit web service that keeps a pass true.",
} as const;
export type Room = keyof typeof ROOMS;

/** The document's top-level `tags`: one per room, with what it holds. */
export const ROOM_TAGS = Object.entries(ROOMS).map(([name, description]) => ({ name, description }));

/** Who a call may be made by, as `components.securitySchemes` (docs/api.md, "Who may call"). */
export const SECURITY_SCHEMES = {
  organiserSession: {
    type: "apiKey",
    in: "cookie",
    name: ORGANISER_COOKIE,
    description:
      "An organiser session, from `admin-login` (the owner's password) or `team-login` (a team member): HttpOnly, SameSite=Strict, signed, 12 hours. Each call opens to the roles it names (Owner, Manager, Finance, Door; docs/decisions/050-the-team.md); another role's session is 403 `forbidden`, and so is a host's where this is the only scheme.",
  },
  hostSession: {
    type: "apiKey",
    in: "cookie",
    name: HOST_COOKIE,
    description:
      "A host's session, from `host-login` with a host link's token: opens the door and rounds calls for the link's event only (another event is 403 `forbidden`).",
  },
  guestSession: {
    type: "apiKey",
    in: "cookie",
    name: GUEST_COOKIE,
    description:
      "A guest's `/me` session, from `verify-otp` with `signIn: true`: that mobile's own nights only (401 `guest_session_required` without it).",
  },
  verifiedPhone: {
    type: "apiKey",
    in: "cookie",
    name: VERIFIED_PHONE_COOKIE,
    description:
      "The verified phone's cookie, from `verify-otp` (or a waitlist offer's link): proves one phone for booking calls about that phone (403 `phone_not_verified` without it).",
  },
  signedLink: {
    type: "apiKey",
    in: "query",
    name: "t",
    description:
      "The token of a link texted or emailed to the person: an HMAC over the ids the link names and what it is for, so it opens that one page (403 `invalid_link` otherwise). GET calls read it from the query; POST calls from the body, as each call's schema names it (`t`, `ticketToken`, `token`).",
  },
  stripeSignature: {
    type: "apiKey",
    in: "header",
    name: "Stripe-Signature",
    description: "Stripe's signature of the webhook's body, checked with `STRIPE_WEBHOOK_SECRET`.",
  },
  applePass: {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description:
      "`ApplePass {authenticationToken}`: the token Apple Wallet keeps with a pass (an HMAC of its serial number), sent by the device on the PassKit web service's calls about that pass (401 otherwise).",
  },
  twilioSignature: {
    type: "apiKey",
    in: "header",
    name: "X-Twilio-Signature",
    description: "Twilio's signature of the posted fields, checked with `TWILIO_AUTH_TOKEN`.",
  },
} as const;
type Scheme = keyof typeof SECURITY_SCHEMES;

/**
 * What proves the caller, per operation, as alternatives: `[]` a public call, `["organiserSession",
 * "hostSession"]` either one, and `"none"` first when the call also answers without any (it only
 * does more with one), which the document writes as the empty requirement `{}`. It follows the
 * `**Who:**` of each route's description; test/openapi-operations.test.ts fails on an operation
 * missing here or a key no operation has.
 */
export const OPERATION_SECURITY: Record<string, readonly ("none" | Scheme)[]> = {
  // booking
  getEvents: [],
  getEvent: [],
  images: [],
  uploadsImages: [],
  sendOtp: [],
  verifyOtp: [],
  keptDetails: ["verifiedPhone", "guestSession"],
  keptPhoto: ["verifiedPhone", "guestSession"],
  saveUserDetails: ["verifiedPhone"],
  devOutbox: [],
  me: ["guestSession"],
  meData: ["guestSession"],
  meDeleteDetails: ["guestSession"],
  getMeConsent: ["guestSession"],
  postMeConsent: ["guestSession"],
  cancelBooking: ["guestSession"],
  transferTicket: ["guestSession"],
  getGuestChoice: ["signedLink"],
  postGuestChoice: ["signedLink"],
  meLogout: ["none", "guestSession"],
  joinWaitlist: ["verifiedPhone"],
  leaveWaitlist: ["verifiedPhone"],
  claimOffer: ["signedLink"],
  createCheckoutSession: ["verifiedPhone"],
  checkoutSession: ["verifiedPhone"],
  sendConfirmation: ["verifiedPhone"],
  stripeWebhook: ["stripeSignature"],
  ticket: ["signedLink"],
  ticketStatus: ["signedLink"],
  getEventDetails: ["none", "organiserSession", "hostSession"],
  confirmBooking: ["none", "organiserSession", "hostSession"],
  devCheckout: [],
  devCheckoutPay: [],
  devCheckoutCancel: [],
  promoCodes: ["organiserSession"],
  adminEventPromoCodes: ["organiserSession"],
  disablePromoCode: ["organiserSession"],
  applyPromo: ["verifiedPhone"],
  invoice: ["signedLink"],
  meInvoice: ["guestSession"],
  // night
  adminEventRoster: ["organiserSession", "hostSession"],
  checkIn: ["organiserSession", "hostSession"],
  undoCheckIn: ["organiserSession", "hostSession"],
  openDoors: ["organiserSession", "hostSession"],
  getParticipants: ["signedLink"],
  saveFeedback: ["signedLink"],
  getFeedback: ["signedLink"],
  shareContact: ["signedLink"],
  adminEventRounds: ["organiserSession", "hostSession"],
  planRounds: ["organiserSession", "hostSession"],
  runRounds: ["organiserSession", "hostSession"],
  markLeft: ["organiserSession", "hostSession"],
  roomAnnouncement: ["organiserSession", "hostSession"],
  adminEventKeepApart: ["organiserSession"],
  keepApart: ["organiserSession"],
  adminEventMessageGuests: ["organiserSession", "hostSession"],
  messageGuests: ["organiserSession", "hostSession"],
  myRounds: ["signedLink"],
  roundEvents: ["signedLink"],
  adminEventRatings: ["organiserSession", "hostSession"],
  releaseResults: ["organiserSession"],
  adminSaveFeedback: ["organiserSession", "hostSession"],
  // organiser
  adminLogin: [],
  adminLogout: ["none", "organiserSession"],
  adminSession: ["none", "organiserSession"],
  teamLogin: [],
  getTeam: ["organiserSession"],
  postTeam: ["organiserSession"],
  teamRemove: ["organiserSession"],
  teamResend: ["organiserSession"],
  teamSetup: ["signedLink"],
  teamSetupTotp: ["signedLink"],
  signOutEverywhere: ["organiserSession"],
  ownerSecurity: ["organiserSession"],
  ownerTotp: ["organiserSession"],
  ownerTotpConfirm: ["organiserSession"],
  ownerSecondFactor: ["organiserSession"],
  // A set-up link's token (a member finishing set-up) or the signed-in owner's or member's session.
  passkeyRegisterOptions: ["signedLink", "organiserSession"],
  passkeyRegister: ["signedLink", "organiserSession"],
  passkeyLoginOptions: [],
  passkeyLogin: [],
  adminEvents: ["organiserSession"],
  adminEvent: ["organiserSession"],
  saveEvent: ["organiserSession"],
  updateEvent: ["organiserSession"],
  updateEventImage: ["organiserSession"],
  cancelEvent: ["organiserSession"],
  moveEventGuests: ["organiserSession"],
  adminEventWaitlist: ["organiserSession"],
  adminEventSummary: ["organiserSession"],
  reportsMoney: ["organiserSession"],
  reportsGst: ["organiserSession"],
  reportsSeats: ["organiserSession"],
  reportsReturning: ["organiserSession"],
  reportsNights: ["organiserSession"],
  reportsMatches: ["organiserSession"],
  reportsPrices: ["organiserSession"],
  reportsInvitations: ["organiserSession"],
  adminEventParticipantsCsv: ["organiserSession"],
  startEvent: ["organiserSession"],
  endEvent: ["organiserSession"],
  getEventUser: ["organiserSession"],
  refund: ["organiserSession"],
  giveCredit: ["organiserSession"],
  adminInvoice: ["organiserSession"],
  hostLinks: ["organiserSession"],
  adminEventHostLinks: ["organiserSession"],
  revokeHostLink: ["organiserSession"],
  hostLogin: ["signedLink"],
  hostSession: ["hostSession"],
  adminEventActivity: ["organiserSession"],
  announcementsPreview: ["organiserSession"],
  announcements: ["organiserSession"],
  adminEventAnnouncements: ["organiserSession"],
  // messaging
  getConfirmEmailConsent: ["signedLink"],
  postConfirmEmailConsent: ["signedLink"],
  getUnsubscribe: ["signedLink"],
  postUnsubscribe: ["signedLink"],
  twilioInbound: ["twilioSignature"],
  devInboundSms: [],
  devMailbox: [],
  // ops: the document and its page are open outside production, the organiser's only in it.
  healthz: [],
  publicConfig: [],
  openapiJson: ["none", "organiserSession"],
  docs: ["none", "organiserSession"],
  docsScalarJs: ["none", "organiserSession"],
  // wallet: the ticket link's token, or the guest's own /me session.
  walletApple: ["signedLink", "guestSession"],
  walletGoogle: ["signedLink", "guestSession"],
  walletStatus: ["organiserSession"],
  // wallet: Apple's PassKit web service (its list and log calls carry no header, as Apple sends them).
  postPasskitV1DevicesRegistrations: ["applePass"],
  deletePasskitV1DevicesRegistrations: ["applePass"],
  passkitV1DevicesRegistrations: [],
  passkitV1Passes: ["applePass"],
  passkitV1Log: [],
};

type Registry = Pick<OpenAPIHono, "openAPIRegistry">;

/**
 * An operation's id, camelCase from its path without `/api` and the path's parameters
 * (`/api/save-user-details` → `saveUserDetails`, `/api/admin-event/{id}/roster` →
 * `adminEventRoster`), its method in front only where the path has several (`getMeConsent`).
 */
export function operationIdOf(method: string, path: string, pathHasSeveralMethods: boolean): string {
  const words = path
    .split("/")
    .filter((segment, i) => segment !== "" && !segment.startsWith("{") && !(i === 1 && segment === "api"))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter((word) => word !== "");
  if (pathHasSeveralMethods) words.unshift(method.toLowerCase());
  return words
    .map((word, i) => (i === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()))
    .join("");
}

/**
 * Tags every route of one room's router with the room, as api/app.ts mounts it: the copy the app
 * keeps is made at mounting, so this is done before. The route objects themselves are replaced, not
 * changed: a router registers the module's own createRoute constant.
 */
export function inRoom<R extends Registry>(room: Room, router: R): R {
  for (const definition of router.openAPIRegistry.definitions) {
    if (definition.type === "route") definition.route = { ...definition.route, tags: [room] };
  }
  return router;
}

/**
 * Gives every route the whole app declares its operationId and its security (OPERATION_SECURITY),
 * and declares the security schemes. Called once the app has mounted every room.
 */
export function describeOperations(app: Registry): void {
  const definitions = app.openAPIRegistry.definitions;
  const methodsOf = new Map<string, number>();
  for (const d of definitions)
    if (d.type === "route") methodsOf.set(d.route.path, (methodsOf.get(d.route.path) ?? 0) + 1);
  for (const definition of definitions) {
    if (definition.type !== "route") continue;
    const { method, path } = definition.route;
    const operationId = operationIdOf(method, path, (methodsOf.get(path) ?? 0) > 1);
    const callers = OPERATION_SECURITY[operationId];
    definition.route = {
      ...definition.route,
      operationId,
      // An operation missing from the table is left without `security` (test/openapi-operations
      // fails on it) rather than said to be public.
      ...(callers && {
        security: callers.map((caller) => (caller === "none" ? {} : { [caller]: [] })),
      }),
    };
  }
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
    app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
  }
}
