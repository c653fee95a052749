import { formatPhone } from "../phone.ts";
import type { BookingUser } from "../types.ts";

export function AttendeeSummary({ user }: { user: BookingUser }) {
  return (
    <dl className="booking-summary" aria-label="Attendee">
      <div>
        <dt>Name</dt>
        <dd className="booking-user-name">{user.name}</dd>
      </div>
      <div>
        <dt>Email</dt>
        <dd>{user.email}</dd>
      </div>
      <div>
        <dt>Mobile</dt>
        <dd>{formatPhone(user.phone)}</dd>
      </div>
      <div>
        <dt>Gender</dt>
        <dd>{user.gender}</dd>
      </div>
    </dl>
  );
}
