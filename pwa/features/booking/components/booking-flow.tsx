import { useNavigate } from "react-router-dom";
import { useShallow } from "zustand/react/shallow";
import { normaliseAuMobile } from "../../../../common/phone.ts";
import { bookingStepPath } from "../../../app/paths.ts";
import type { EventView } from "../../events/index.ts";
import { afterVerified, useBookingStore } from "../booking-store.ts";
import type { CodeFor } from "../send-otp.ts";
import type { Gender } from "../types.ts";
import { DetailsForm } from "./details-form.tsx";
import { OtpStep } from "./otp-step.tsx";
import { PhoneStep } from "./phone-step.tsx";
import { SideChoice } from "./side-choice.tsx";
import { WaitlistForm } from "./waitlist-form.tsx";
import { WaitlistStatus } from "./waitlist-status.tsx";
import "../booking.css";

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
 * details. With the intent "waitlist" (a sold-out event's card, or a full side) the last step joins
 * the waitlist instead; a details form that finds the seats gone offers the same. An offer (opened
 * from the waitlist SMS) starts at the details, the phone already proven by the link. Where it is
 * and what was typed live in the booking store (booking-store.ts), so Back from /confirmation
 * returns to the details as they were, and a reload keeps the place in line (the server's cookie
 * still decides whether the phone is verified).
 */
export function BookingFlow({ event }: { event: EventView }) {
  const navigate = useNavigate();
  const { step, intent, offer, side, typedPhone, transferToken } = useBookingStore(
    useShallow(({ step, intent, offer, side, typedPhone, transferToken }) => ({
      step,
      intent,
      offer,
      side,
      typedPhone,
      transferToken,
    })),
  );
  // A given ticket (transfer mode): the code also signs the friend in on /me, where their ticket shows.
  const codeFor: CodeFor = transferToken ? { signIn: true } : { eventID: event.id };
  const { setStep, chooseSide, setTypedPhone, held } = useBookingStore.getState();
  const balanced = Boolean(event.SeatsLeft) && !offer && !transferToken;
  // The server accepted the number, so it is an Australian mobile; E.164 is what the details carry.
  const verified = (phone: string) => setStep(afterVerified(intent, normaliseAuMobile(phone) ?? phone));
  const joined = (phone: string) => (position: number | null) => setStep({ name: "waiting", phone, position });
  const reverify = () => setStep({ name: "phone" });

  return (
    <section className="booking-step" aria-labelledby="booking-step-title">
      <h2 id="booking-step-title">{STEP_TITLES[step.name]}</h2>
      {step.name === "side" ? (
        <SideChoice event={event} initial={side ?? undefined} onChoose={chooseSide} />
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
            codeFor={codeFor}
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
          codeFor={codeFor}
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
          left={step.left}
          onLeft={() => setStep({ ...step, left: true })}
          onUnverified={reverify}
        />
      ) : (
        <DetailsForm
          phone={step.phone}
          event={event}
          offer={offer ?? undefined}
          onUnverified={reverify}
          onJoinedWaitlist={joined(step.phone)}
          onSaved={(user, holdExpiresAt) => {
            // Kept for Back and for the way back from the payment page, whose Cancel opens /confirmation afresh.
            held({ user, event, holdExpiresAt });
            navigate(bookingStepPath("confirmation", event.id));
          }}
        />
      )}
    </section>
  );
}
