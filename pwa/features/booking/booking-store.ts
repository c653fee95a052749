import { create } from "zustand";
import { createJSONStorage, persist, type StateStorage } from "zustand/middleware";
import type { MixedGender, WantsToMeetValue } from "../../../common/format-words.ts";
import type { EventView } from "../events/index.ts";
import type { AppliedPromo, BookingIntent, ConfirmationState, Gender, OfferState } from "./types.ts";

// The booking flow in one place (docs/decisions/046-booking-flow-in-one-store.md): the event, the
// phone's step, the details typed, the seat held. Each step's address names its event
// (`/otp-verification?eventID=…`, `/confirmation?eventID=…`) and reads the rest from here, so Back,
// Forward and a reload all find the flow where it was. No history entry carries any of it.

/** Where the phone is in the flow on /otp-verification. */
export type Step =
  | { name: "side" }
  | { name: "phone" }
  | { name: "otp"; phone: string }
  | { name: "details"; phone: string }
  | { name: "waitlist"; phone: string }
  | { name: "waiting"; phone: string; position: number | null; left?: boolean };

export type Details = {
  name: string;
  email: string;
  /** Women meet men's Female / Male ("" until chosen). */
  gender: Gender | "";
  /** YYYY-MM-DD from the date input, "" until chosen. */
  dateOfBirth: string;
  /** A Mixed night's Woman, Man or Non-binary: kept in memory only, never in storage. */
  mixedGender: MixedGender | "";
  /** A Mixed night's whom they would like to meet: someone's orientation, in memory only. */
  wantsToMeet: WantsToMeetValue | "";
  consent: boolean;
  keep: boolean;
  marketingSms: boolean;
  marketingEmail: boolean;
  /** **Use my saved photo** (true) or a new one (false); null until chosen, when a kept photo is offered first. */
  useSaved: boolean | null;
  /** The photo chosen, and its preview's object URL: a file cannot be stored, so both live while the tab does. */
  photo: File | null;
  photoPreview: string | null;
};

type Flow = {
  eventID: number | null;
  /** The event as the flow began with it (get-event's answer, or the one a waitlist offer opened). */
  event: EventView | null;
  intent: BookingIntent;
  offer: OfferState | null;
  /** The side chosen first at a balanced event (Woman / Man). */
  side: Gender | null;
  /** The number typed on the phone step, offered again after Change number. */
  typedPhone: string;
  step: Step;
  details: Details;
  /** The seat held (save-user-details), with the event as it was then: its price is the one held. */
  hold: ConfirmationState | null;
  /** The promo code applied to that hold, and the total the server answered. */
  promo: (AppliedPromo & { userID: number; eventID: number }) | null;
  /**
   * Transfer mode (`/transfer?t=`, docs/decisions/058-ticket-transfer.md): the friend's link's token.
   * The code signs them in on /me, the details step sends it as `transferToken` and holds no seat,
   * and the flow ends on their ticket.
   */
  transferToken: string | null;
  /**
   * **Use my credit** at the step before paying (issue 52, docs/decisions/057-credit.md): on unless the
   * guest unticks it; sent as `useCredit` only when the signed-in number has credit.
   */
  useCredit: boolean;
};

export type Begin = { intent?: BookingIntent; offer?: OfferState; verifiedPhone?: string; transferToken?: string };

type Actions = {
  /**
   * Starts the flow for `event` at its first step: the side at a balanced event, else the phone, or
   * the details once the phone is proven (a waitlist offer). What was typed and the photo stay when
   * it is the same event (the boxes start unticked again), and all start empty for another one.
   */
  begin(event: EventView, options?: Begin): void;
  setStep(step: Step): void;
  chooseSide(side: Gender, intent: BookingIntent): void;
  setTypedPhone(phone: string): void;
  setDetails(change: Partial<Omit<Details, "photo" | "photoPreview">>): void;
  /** A new photo (or none): its preview is made here and the previous one let go. */
  setPhoto(photo: File | null): void;
  held(hold: ConfirmationState): void;
  setPromo(promo: Flow["promo"]): void;
  setUseCredit(useCredit: boolean): void;
};

export type BookingState = Flow & Actions;

const UNTICKED = { consent: false, keep: false, marketingSms: false, marketingEmail: false };

export const EMPTY_DETAILS: Details = {
  name: "",
  email: "",
  gender: "",
  dateOfBirth: "",
  mixedGender: "",
  wantsToMeet: "",
  consent: false,
  keep: false,
  marketingSms: false,
  marketingEmail: false,
  useSaved: null,
  photo: null,
  photoPreview: null,
};

export const EMPTY_FLOW: Flow = {
  eventID: null,
  event: null,
  intent: "book",
  offer: null,
  side: null,
  typedPhone: "",
  step: { name: "phone" },
  details: EMPTY_DETAILS,
  hold: null,
  promo: null,
  transferToken: null,
  useCredit: true,
};

/** The sessionStorage key the flow is kept under, for this tab only. */
export const BOOKING_STORE_KEY = "saathi-booking";

/** After the code (or a proven phone): the details, or the waitlist form when joining the line. */
export const afterVerified = (intent: BookingIntent, phone: string): Step =>
  intent === "waitlist" ? { name: "waitlist", phone } : { name: "details", phone };

function firstStep(event: EventView, options: Begin): Step {
  const intent = options.intent ?? "book";
  if (options.verifiedPhone) return afterVerified(intent, options.verifiedPhone);
  // A ticket given to a friend keeps the giver's seat: no side to choose.
  return event.SeatsLeft && !options.offer && !options.transferToken ? { name: "side" } : { name: "phone" };
}

// sessionStorage may refuse (private mode, full): the flow then lives in memory for this page.
const tabStorage: StateStorage = {
  getItem: (name) => {
    try {
      return sessionStorage.getItem(name);
    } catch {
      return null;
    }
  },
  setItem: (name, value) => {
    try {
      sessionStorage.setItem(name, value);
    } catch {
      // Refused: Back and Forward still work; a reload starts the step afresh.
    }
  },
  removeItem: (name) => {
    try {
      sessionStorage.removeItem(name);
    } catch {
      // Nothing kept to remove.
    }
  },
};

const letGo = (url: string | null) => {
  if (url) URL.revokeObjectURL(url);
};

/** What is kept in storage: all but the photo (a file) and a Mixed night's answers (never stored). */
type Kept = Omit<Flow, "details"> & {
  details: Omit<Details, "photo" | "photoPreview" | "mixedGender" | "wantsToMeet" | "useSaved">;
};

function kept(state: BookingState): Kept {
  const { photo, photoPreview, mixedGender, wantsToMeet, useSaved, ...details } = state.details;
  const { eventID, event, intent, offer, side, typedPhone, step, hold, promo, transferToken, useCredit } = state;
  return { eventID, event, intent, offer, side, typedPhone, step, details, hold, promo, transferToken, useCredit };
}

export const useBookingStore = create<BookingState>()(
  persist(
    (set, get) => ({
      ...EMPTY_FLOW,
      begin: (event, options = {}) => {
        const same = get().eventID === event.id;
        if (!same) letGo(get().details.photoPreview);
        // The boxes start unticked on every new start: only a tick given in this flow counts.
        const details = same ? { ...get().details, ...UNTICKED } : EMPTY_DETAILS;
        // A waitlist offer opened on another phone has nothing typed: the name given in line fills in.
        const name = details.name || (options.offer?.name ?? "");
        set({
          eventID: event.id,
          event,
          intent: options.intent ?? "book",
          offer: options.offer ?? null,
          transferToken: options.transferToken ?? null,
          useCredit: true,
          side: null,
          step: firstStep(event, options),
          details: { ...details, name },
        });
      },
      setStep: (step) => set({ step }),
      chooseSide: (side, intent) =>
        set((s) => ({ side, intent, step: { name: "phone" }, details: { ...s.details, gender: side } })),
      setTypedPhone: (typedPhone) => set({ typedPhone }),
      setDetails: (change) => set((s) => ({ details: { ...s.details, ...change } })),
      setPhoto: (photo) => {
        const before = get().details;
        if (before.photo === photo) return;
        letGo(before.photoPreview);
        const photoPreview = photo ? URL.createObjectURL(photo) : null;
        set({ details: { ...get().details, photo, photoPreview } });
      },
      held: (hold) => set({ hold }),
      setPromo: (promo) => set({ promo }),
      setUseCredit: (useCredit) => set({ useCredit }),
    }),
    {
      name: BOOKING_STORE_KEY,
      version: 1,
      storage: createJSONStorage(() => tabStorage),
      partialize: kept,
      // The stored details lack what is kept in memory only: those keep their current values.
      merge: (stored, current) => {
        const saved = (stored ?? {}) as Partial<Kept>;
        return { ...current, ...saved, details: { ...current.details, ...saved.details } };
      },
    },
  ),
);
