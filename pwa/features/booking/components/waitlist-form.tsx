import { type FormEvent, useState } from "react";
import { MarketingBoxes } from "../../../lib/marketing-boxes.tsx";
import { useBookingStore } from "../booking-store.ts";
import { genderFullMessage, SOLD_OUT_WAITLIST_MESSAGE } from "../seat-messages.ts";
import type { Gender } from "../types.ts";
import { useJoinWaitlist } from "../use-join-waitlist.ts";
import { GenderField, NameField, VerifiedPhoneField } from "./person-fields.tsx";

/**
 * The waitlist of a sold-out event, reached from its card: the details form without photo or email,
 * since nothing is booked yet. Someone offered a seat later books it with the usual details form.
 */
/**
 * What the form says first: at a balanced event, which side is full (`No seats left for women`),
 * never that the event is sold out while the other side still has seats.
 */
export function waitlistIntro(seatsLeft: { male: number; female: number } | null | undefined, gender: Gender | "") {
  if (!seatsLeft) return SOLD_OUT_WAITLIST_MESSAGE;
  const full = (["female", "male"] as const).filter((side) => seatsLeft[side] <= 0);
  if (full.length === 2) return SOLD_OUT_WAITLIST_MESSAGE;
  if (gender && full.includes(gender)) return genderFullMessage(gender);
  const [side] = full;
  return side ? genderFullMessage(side) : "Join the waitlist and we'll text you when a seat frees up.";
}

export function WaitlistForm(props: {
  phone: string;
  eventID: number;
  /** Seats left per side at a balanced event (null otherwise), as the event's card had them. */
  seatsLeft?: { male: number; female: number } | null;
  /** Women meet men asks Woman or Man; One group and Mixed have one line and ask no gender. */
  asksGender?: boolean;
  onJoined: (position: number | null) => void;
  /** A seat turned out to be free: book it instead. */
  onBook: () => void;
  onUnverified: () => void;
}) {
  // The name and gender are the details form's own (booking-store.ts): typed once for either form.
  const name = useBookingStore((s) => s.details.name);
  const gender = useBookingStore((s) => s.details.gender);
  const setName = (value: string) => useBookingStore.getState().setDetails({ name: value });
  const setGender = (value: Gender | "") => useBookingStore.getState().setDetails({ gender: value });
  const [problem, setProblem] = useState<string | null>(null);
  // Unticked: only the person's own tick is consent. Only the text box here, as no email is asked.
  const [marketingSms, setMarketingSms] = useState(false);
  const waitlist = useJoinWaitlist(props.eventID, props.phone, props.onJoined);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const asksGender = props.asksGender !== false;
    if (!name.trim() || (asksGender && !gender)) {
      setProblem("All fields are required.");
      return;
    }
    setProblem(null);
    void waitlist.join(name, asksGender && gender ? gender : undefined, marketingSms);
  };

  return (
    <form className="form" onSubmit={submit} noValidate>
      <p>{waitlistIntro(props.seatsLeft, gender)}</p>
      <VerifiedPhoneField idPrefix="waitlist" phone={props.phone} />
      <NameField idPrefix="waitlist" value={name} onChange={setName} />
      {props.asksGender === false ? null : <GenderField idPrefix="waitlist" value={gender} onChange={setGender} />}
      <MarketingBoxes idPrefix="waitlist" sms={marketingSms} onSms={setMarketingSms} />
      <p className={`message ${waitlist.seatFree ? "ok" : "error"}`} role="alert">
        {problem ?? waitlist.message}
      </p>
      {waitlist.unverified ? (
        <button type="button" className="button" onClick={props.onUnverified}>
          Verify my number again
        </button>
      ) : null}
      {waitlist.seatFree ? (
        <button type="button" className="button primary" onClick={props.onBook}>
          Book a seat
        </button>
      ) : (
        <button type="submit" className="button primary" disabled={waitlist.busy} aria-busy={waitlist.busy}>
          Join waitlist
        </button>
      )}
    </form>
  );
}
