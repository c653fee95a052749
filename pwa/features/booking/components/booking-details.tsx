import { Fragment } from "react";
import { genderWord } from "../../../../common/format-words.ts";
import { formatPhone } from "../phone.ts";
import { type BookingUser, GENDER_LABELS } from "../types.ts";

/**
 * An email with places to wrap between its parts (before `@` and `.`, after `-` and `_`), so a long
 * one breaks at a word's edge on a phone instead of mid-word (with `overflow-wrap: break-word` as
 * the last resort for a single part wider than the screen).
 */
export function WrappableEmail({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])|(?<=[-_])/);
  return (
    <>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, never reordered.
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

export function AttendeeSummary({ user }: { user: BookingUser }) {
  return (
    <dl className="booking-summary" aria-label="Attendee">
      <div>
        <dt>Name</dt>
        <dd className="booking-user-name">{user.name}</dd>
      </div>
      <div className="booking-summary-wide">
        <dt>Email</dt>
        <dd className="booking-email">
          <WrappableEmail email={user.email} />
        </dd>
      </div>
      <div>
        <dt>Mobile</dt>
        <dd>{formatPhone(user.phone)}</dd>
      </div>
      {user.gender === "unasked" ? null : (
        <div>
          <dt>Gender</dt>
          <dd>{user.gender === "nonbinary" ? genderWord(user.gender) : GENDER_LABELS[user.gender]}</dd>
        </div>
      )}
    </dl>
  );
}
