import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { usePrivacyFacts } from "../use-privacy-facts.ts";

/**
 * The /privacy page: what is kept about an attendee, who sees what and for how long, in plain words.
 * It follows what the server does: get-participants (name and thumbnail to the people met),
 * get-feedback (a phone only to people its owner liked) and docs/decisions/012-disk-and-personal-data.md.
 */
export function PrivacyPolicy() {
  const state = usePrivacyFacts();
  const facts = state.status === "ready" ? state.facts : null;
  return (
    <div className="privacy-policy">
      <p className="privacy-lead">What we keep when you book a Saathi night, who sees it, and when we erase it.</p>

      <WhatWeKeep />

      <WhoSeesWhat />

      <HowLongWeKeepIt state={state} />

      <KeptForNextTime />

      <MessagesAboutFutureEvents businessName={facts?.businessName} />
      <TicketsGivenToAFriend />

      <SeeingAndErasing />

      <h2>Questions</h2>
      <p>
        {facts?.supportEmail ? (
          <>
            Write to <a href={`mailto:${facts.supportEmail}`}>{facts.supportEmail}</a> with any question about your
            details.
          </>
        ) : (
          "Ask the organiser any question about your details."
        )}
      </p>
      <p>
        <Link to={paths.home}>Back to upcoming events</Link>
      </p>
    </div>
  );
}

function WhatWeKeep() {
  return (
    <>
      <h2>What we keep</h2>
      <ul>
        <li>Your name, email, mobile number and gender, and the photo you upload.</li>
        <li>
          Our nights come in three formats. At a <strong>Women meet men</strong> night we ask whether you are a woman or
          a man. At a <strong>One group</strong> night, where everyone meets everyone, we ask no gender at all. At a{" "}
          <strong>Mixed</strong> night we ask your gender (woman, man or non-binary) and whom you would like to meet
          (women, men or everyone).
        </li>
        <li>
          <strong>Whom you would like to meet</strong> says something about your sexual orientation, which the Privacy
          Act treats as sensitive. We ask it only at Mixed nights, and only to seat you with people who would like to
          meet you too. Nobody sees your answer: not the people you meet, not a host, not the organiser's lists or
          spreadsheet. Only the planner that makes the night's rounds reads it, and it is erased with your other details
          after the night.
        </li>
        <li>
          Your photo is redrawn on our server, which removes hidden details stored in the file, such as where it was
          taken.
        </li>
        <li>
          Your booking: the event, the price and the payment's reference. Your card details go to the card payment
          provider, never to us.
        </li>
        <li>At the event: when you arrived, and the Like or Dislike you give each person you met.</li>
      </ul>
    </>
  );
}

function WhoSeesWhat() {
  return (
    <>
      <h2>Who sees what</h2>
      <ul>
        <li>
          <strong>The people you meet that night</strong> see your name and photo, so they can rate the people they met.
        </li>
        <li>
          <strong>The people you Like</strong> (or choose Date or Friend for, at a night that offers Friend) see your
          mobile number in their matches after the event, so a match can get in touch, unless you choose on your matches
          page to share your email, your Instagram handle or nothing with them instead. Your newest choice is also what
          your next matches see until you choose again. Nobody you Dislike (No) or do not rate gets any of it, and a
          Dislike is never shown to the person you gave it to, nor to anyone else you meet. What you chose to share is
          erased with the night's other details.
        </li>
        <li>
          <strong>A host</strong> who helps run the night sees whether you have rated each person you met, never whether
          it was a Like or a Dislike, and only the last 4 digits of your mobile number.
        </li>
        <li>
          <strong>The organiser</strong> sees your details to run the night: the guest list, the door check and any
          refund. Your email is seen only by the organiser, and by the card payment provider for your receipt. The
          organiser alone can also see your Likes and Dislikes, to type in a paper scorecard for a guest without a
          phone; a paper card never changes a choice you made yourself.
        </li>
      </ul>
    </>
  );
}

function HowLongWeKeepIt({ state }: { state: ReturnType<typeof usePrivacyFacts> }) {
  const days = state.status === "ready" ? state.facts.retentionDays : undefined;
  return (
    <>
      <h2>How long we keep it</h2>
      <ul>
        <li aria-busy={state.status === "loading"}>
          {state.status === "loading" ? (
            "Loading how long we keep your details…"
          ) : days ? (
            <>
              <strong>
                {days} {days === 1 ? "day" : "days"}
              </strong>{" "}
              after your event ends, your name, email, mobile number and photo are erased. The booking, the payment and
              the ratings stay for our accounts, without them.
            </>
          ) : (
            "A set number of days after your event ends, your name, email, mobile number and photo are erased (we couldn't load the number just now). The booking, the payment and the ratings stay for our accounts, without them."
          )}
        </li>
        <li>
          To count how many guests come back, a paid booking keeps a code made from your mobile number that can't be
          turned back into it. <strong>Delete my details</strong> removes it.
        </li>
        <li>
          Credit you hold (from a cancel taken as credit, or given by the organiser) is kept under the same kind of
          code, never your number, with its history. It stays after <strong>Delete my details</strong>, like the money
          of your bookings, so verifying the same number again finds it; <strong>Download my data</strong> includes it.
        </li>
        <li>If you hold a seat but don't pay for it, your photo is deleted within a few days at most.</li>
        <li>The text messages we send you keep their full wording for 7 days, then only their first few words.</li>
        <li>Copies in our backups go as the backups are replaced.</li>
      </ul>
    </>
  );
}

function KeptForNextTime() {
  return (
    <>
      <h2>Details kept for next time</h2>
      <ul>
        <li>
          Only if you tick <strong>Keep my details for next time</strong> on the booking form, we keep your name, email,
          date of birth, gender and a copy of your photo with your mobile number, so your next booking is filled in and
          you can choose <strong>Use my saved photo</strong>. Without the box, nothing more is kept.
        </li>
        <li>
          Only someone who proves that mobile number with a code sees them. They are kept beyond the days above, until
          you delete them, or until 18 months pass without a booking from that number; then they are erased.
        </li>
      </ul>
    </>
  );
}

/** **Give my ticket to a friend** (docs/decisions/058-ticket-transfer.md): what is kept, and for how long. */
function TicketsGivenToAFriend() {
  return (
    <>
      <h2>Tickets given to a friend</h2>
      <p>
        When you give your ticket to a friend, we keep the mobile number you typed only until your friend takes the
        ticket, you send it to another number, or the doors open, whichever comes first. Your friend's name, photo and
        details are theirs: you are not shown them, and your friend is not shown yours. The payment and its receipt stay
        yours. <strong>Download my data</strong> lists the tickets you gave and the tickets you were given.
      </p>
    </>
  );
}

function MessagesAboutFutureEvents({ businessName }: { businessName: string | null | undefined }) {
  return (
    <>
      <h2>Messages about future events</h2>
      <ul>
        <li>
          Only if you tick <strong>Text me about future events</strong> or <strong>Email me about future events</strong>{" "}
          (on the booking form, the waitlist or <Link to={paths.me}>My nights</Link>) does{" "}
          {businessName ?? "the organiser"} send you news of its future nights, by text or by email, whichever you
          ticked, and nothing else. The boxes start unticked, and you never need them to book.
        </li>
        <li>
          You can stop at any time: reply <strong>STOP</strong> to any of our texts, use the{" "}
          <strong>Unsubscribe</strong> link in any of our emails (no sign-in needed), or untick the box on My nights.
          Deleting your details stops them too.
        </li>
        <li>
          Your tickets, reminders and the night's own messages are not marketing: they still come, whatever you choose.
        </li>
        <li>
          We keep a record of each choice: when you made it, where (the booking form, the waitlist, My nights, a text or
          an unsubscribe link) and the wording of the box you answered, as proof of what you agreed to. Download my data
          includes it.
        </li>
      </ul>
    </>
  );
}

function SeeingAndErasing() {
  return (
    <>
      <h2>Seeing and erasing what we keep</h2>
      <ul>
        <li>
          On <Link to={paths.me}>My nights</Link>, signed in with your mobile number, <strong>Download my data</strong>{" "}
          gives you a file of everything we hold about that number: your saved details, your bookings, the ratings you
          gave, your matches, the text messages we sent you and your choices about messages on future events.
        </li>
        <li>
          <strong>Delete my details</strong> there erases your name, email, date of birth and photos from all your
          bookings at once, and your saved details, without waiting for the days above. Your tickets, payments and
          refunds stay for our accounts, without them, and nobody else's details change. You are signed out on every
          phone.
        </li>
        <li>We record that a download or a deletion happened, and when, but not your number.</li>
      </ul>
    </>
  );
}
