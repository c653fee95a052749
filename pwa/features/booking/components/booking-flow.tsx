import { useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { normaliseAuMobile } from "../../../../common/phone.ts";
import { paths } from "../../../app/paths.ts";
import type { EventView } from "../../events/types.ts";
import { saveDraft } from "../draft.ts";
import { rememberHeldBooking } from "../held-booking.ts";
import type { BookingIntent, BookingPageState, ConfirmationState, Gender, OfferState } from "../types.ts";
import { DetailsForm } from "./details-form.tsx";
import { OtpStep } from "./otp-step.tsx";
import { PhoneStep } from "./phone-step.tsx";
import { SideChoice } from "./side-choice.tsx";
import { WaitlistForm } from "./waitlist-form.tsx";
import { WaitlistStatus } from "./waitlist-status.tsx";
import "../booking.css";

type Step =
  | { name: "side" }
  | { name: "phone" }
  | { name: "otp"; phone: string }
  | { name: "details"; phone: string }
  | { name: "waitlist"; phone: string }
  | { name: "waiting"; phone: string; position: number | null };

const STEP_TITLES = {
  side: "Choose your seat",
  phone: "Verify your mobile",
  otp: "Enter your code",
  details: "Your details",
  waitlist: "Your details",
  waiting: "You're on the waitlist",
} as const;

const SIDE_NAMES: Record<Gender, string> = { female: "a woman's seat", male: "a man's seat" };

/**
 * The booking flow up to the seat hold: at a balanced event the side first (Woman / Man, so a full
 * one is known before anything is typed), then phone, code (skipped when already verified),
 * details. With `intent: "waitlist"` (a sold-out event's card, or a full side) the last step joins
 * the waitlist instead; a details form that finds the seats gone offers the same. An `offer`
 * (opened from the waitlist SMS) starts at the details, the phone already proven by the link.
 */
export function BookingFlow({
  event,
  intent = "book",
  offer,
}: {
  event: EventView;
  intent?: BookingIntent;
  offer?: OfferState;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const pageState = location.state as BookingPageState | null;
  // Back from /confirmation returns to the details, not to the start, and a reload keeps the place
  // in line: both are kept in this history entry (the server's cookie still decides whether the
  // phone is verified).
  const remember = (change: Partial<BookingPageState>) =>
    navigate(`${location.pathname}${location.search}`, { replace: true, state: { ...pageState, ...change } });
  const afterVerified = (phone: string): Step =>
    intent === "waitlist" ? { name: "waitlist", phone } : { name: "details", phone };
  const balanced = Boolean(event.SeatsLeft) && !offer;
  const side = pageState?.side;
  const [step, setStep] = useState<Step>(() => {
    const phone = pageState?.verifiedPhone;
    if (!phone) return balanced && !side ? { name: "side" } : { name: "phone" };
    if (pageState?.waitlisted) return { name: "waiting", phone, position: pageState.waitlisted.position };
    return afterVerified(phone);
  });
  const [typedPhone, setTypedPhone] = useState("");
  // The server accepted the number, so it is an Australian mobile; E.164 is what the details carry.
  const verified = (phone: string) => {
    const e164 = normaliseAuMobile(phone) ?? phone;
    setStep(afterVerified(e164));
    remember({ verifiedPhone: e164 });
  };
  const joined = (phone: string) => (position: number | null) => {
    setStep({ name: "waiting", phone, position });
    remember({ waitlisted: { position } });
  };
  const reverify = () => setStep({ name: "phone" });
  // The side fills in the gender of the details (or waitlist) form; the page's heading follows the intent.
  const chooseSide = (gender: Gender, next: BookingIntent) => {
    saveDraft(event.id, { gender });
    remember({ side: gender, intent: next });
    setStep({ name: "phone" });
  };

  return (
    <section className="booking-step" aria-labelledby="booking-step-title">
      <h2 id="booking-step-title">{STEP_TITLES[step.name]}</h2>
      {step.name === "side" ? (
        <SideChoice event={event} initial={side} onChoose={chooseSide} />
      ) : step.name === "phone" ? (
        <>
          {balanced && side ? (
            <p className="side-chosen">
              {intent === "waitlist" ? "Joining the waitlist for " : "Booking "}
              {SIDE_NAMES[side]}.{" "}
              <button type="button" className="link-button inline" onClick={() => setStep({ name: "side" })}>
                Change
              </button>
            </p>
          ) : null}
          <PhoneStep
            initialPhone={typedPhone}
            codeFor={{ eventID: event.id }}
            onSent={(phone) => {
              setTypedPhone(phone);
              setStep({ name: "otp", phone });
            }}
            onVerified={(phone) => {
              setTypedPhone(phone);
              verified(phone);
            }}
          />
        </>
      ) : step.name === "otp" ? (
        <OtpStep
          phone={step.phone}
          codeFor={{ eventID: event.id }}
          onVerified={() => verified(step.phone)}
          onAlreadyVerified={() => verified(step.phone)}
          onChangeNumber={() => setStep({ name: "phone" })}
        />
      ) : step.name === "waitlist" ? (
        <WaitlistForm
          phone={step.phone}
          eventID={event.id}
          seatsLeft={event.SeatsLeft}
          asksGender={(event.format ?? "women_men") === "women_men"}
          onJoined={joined(step.phone)}
          onBook={() => setStep({ name: "details", phone: step.phone })}
          onUnverified={reverify}
        />
      ) : step.name === "waiting" ? (
        <WaitlistStatus
          eventID={event.id}
          phone={step.phone}
          position={step.position}
          onLeft={() => remember({ waitlisted: undefined })}
          onUnverified={reverify}
        />
      ) : (
        <DetailsForm
          phone={step.phone}
          event={event}
          offer={offer}
          onUnverified={reverify}
          onJoinedWaitlist={joined(step.phone)}
          onSaved={(user, holdExpiresAt) => {
            const state: ConfirmationState = { user, event, holdExpiresAt };
            // Kept for the way back from the payment page, whose Cancel opens /confirmation afresh.
            rememberHeldBooking(state);
            navigate(paths.confirmation, { state });
          }}
        />
      )}
    </section>
  );
}
