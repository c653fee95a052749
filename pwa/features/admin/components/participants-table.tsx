import { Fragment, useState } from "react";
import { imageUrl } from "../../../lib/api.ts";
import type { Participant } from "../admin-api.ts";
import { formatAud, nationalPhone, statusLabel, thumbnailOf } from "../format.ts";
import type { RefundOutcome } from "../refund-batch.ts";
import { GiveCreditDialog } from "./give-credit-dialog.tsx";
import { VenueTime } from "./venue-time.tsx";

// The participants table of the User Details tab (user-details.tsx): one row per booking, with a
// box to pick the paid ones for a refund and each row's last refund outcome.

/** A paid booking with its payment: what Refund may pick. */
export const refundable = (p: Participant) => p.status === "paid" && Boolean(p.payment_intent_id);

/** Every booking of the event, with a box to pick the paid ones for a refund. */
export function ParticipantsTable(props: {
  list: Participant[];
  zone: string;
  processing: boolean;
  selected: Set<string>;
  allSelected: boolean;
  results: Map<string, RefundOutcome>;
  onToggle(paymentIntentId: string): void;
  onSelectAll(): void;
}) {
  const { list, zone, processing, selected, allSelected, results, onToggle } = props;
  // **Give credit** (issue 52): whom the dialog is open for, and what each row was given while shown.
  const [giving, setGiving] = useState<Participant | null>(null);
  const [given, setGiven] = useState<Map<number, number>>(new Map());
  return (
    <>
      {/* Fits a 1366 px laptop; a narrower window scrolls it sideways, so keyboard users can focus it
        to scroll (axe: scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1) */}
      <section className="admin-table-wrap" aria-label="Participants" tabIndex={0}>
        <table className="admin-table admin-participants-table">
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all paid participants"
                  checked={allSelected}
                  disabled={processing || !list.some(refundable)}
                  onChange={() => props.onSelectAll()}
                />
              </th>
              <th scope="col">Photo</th>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Gender</th>
              <th scope="col">Phone</th>
              <th scope="col">Amount</th>
              <th scope="col">Payment</th>
              <th scope="col">Invoice</th>
              <th scope="col">Status</th>
              <th scope="col">Booked</th>
              <th scope="col">Checked in</th>
            </tr>
          </thead>
          <tbody>
            {list.map((p) => (
              <ParticipantRow
                key={p.id}
                p={p}
                zone={zone}
                processing={processing}
                selected={p.payment_intent_id !== null && selected.has(p.payment_intent_id)}
                outcome={p.payment_intent_id ? results.get(p.payment_intent_id) : undefined}
                onToggle={onToggle}
                given={given.get(p.id)}
                onGiveCredit={() => setGiving(p)}
              />
            ))}
          </tbody>
        </table>
      </section>
      {giving ? (
        <GiveCreditDialog
          participant={giving}
          onClose={() => setGiving(null)}
          onGiven={(cents) => setGiven((m) => new Map(m).set(giving.id, (m.get(giving.id) ?? 0) + cents))}
        />
      ) : null}
    </>
  );
}

function ParticipantRow(props: {
  p: Participant;
  zone: string;
  processing: boolean;
  selected: boolean;
  outcome: RefundOutcome | undefined;
  onToggle(paymentIntentId: string): void;
  /** The credit given to this participant since the table was shown, in cents. */
  given: number | undefined;
  onGiveCredit(): void;
}) {
  const { p, zone, processing } = props;
  return (
    <tr className={p.status === "refunded" ? "is-refunded" : undefined}>
      <td>
        <input
          type="checkbox"
          aria-label={`Select ${p.username}`}
          disabled={processing || !refundable(p)}
          checked={props.selected}
          onChange={() => p.payment_intent_id && props.onToggle(p.payment_intent_id)}
        />
      </td>
      <td>
        <Thumb name={p.image_name} />
      </td>
      <td className="admin-wrap">{p.username}</td>
      <td className="admin-wrap">
        <a href={`mailto:${p.email}`}>
          <Email address={p.email} />
        </a>
        {p.emailBounced ? <span className="admin-badge status-bounced">Email bounced</span> : null}
      </td>
      <td className="capitalize">{p.gender === "unasked" ? "—" : p.gender}</td>
      <td>
        <a href={`tel:${p.phone}`}>{nationalPhone(p.phone)}</a>
      </td>
      <td>{formatAud(p.priceCents / 100)}</td>
      <td className="admin-mono admin-payment">{p.payment_intent_id ?? "—"}</td>
      <td>
        {p.invoiceNumber ? (
          <>
            <span className="admin-mono">{p.invoiceNumber}</span>{" "}
            <a
              href={`/api/admin-invoice/${p.invoiceNumber}`}
              download
              aria-label={`Download invoice ${p.invoiceNumber}`}
            >
              Download invoice
            </a>
          </>
        ) : (
          "—"
        )}
      </td>
      <td>
        <span className={`admin-badge status-${p.status}`}>{statusLabel(p.status)}</span>
        <RefundResult outcome={props.outcome} refunded={p.status === "refunded"} />
        {/* Give credit sits with the row's money, not in a column of its own: the table fits 1366 px. */}
        <button
          type="button"
          className="button admin-give-credit"
          onClick={props.onGiveCredit}
          disabled={processing}
          aria-label={`Give credit to ${p.username}`}
        >
          Give credit
        </button>
        {props.given ? <span className="admin-row-result ok">Gave {formatAud(props.given / 100)}</span> : null}
      </td>
      <td>
        <VenueTime iso={p.bookedAt} zone={zone} />
      </td>
      <td>
        <VenueTime iso={p.checkedInAt} zone={zone} />
      </td>
    </tr>
  );
}

/**
 * The last batch's word on this row: why the refund did not happen, or Refunded while the row has not
 * been read again yet. Once the row says Refunded itself, saying it twice adds nothing.
 */
function RefundResult({ outcome, refunded }: { outcome: RefundOutcome | undefined; refunded: boolean }) {
  if (!outcome || (outcome.ok && refunded)) return null;
  return outcome.ok ? (
    <span className="admin-row-result ok">Refunded</span>
  ) : (
    <span className="admin-row-result error">Refund failed: {outcome.reason}</span>
  );
}

/** An address that may break before its `@` and after a dot, hyphen or underscore, never mid-word. */
function Email({ address }: { address: string }) {
  const parts = address.split(/(?<=[._-])|(?=@)/);
  return parts.map((part, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, never reordered
    <Fragment key={i}>
      {i > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

function Thumb({ name }: { name: string }) {
  const [src, setSrc] = useState(imageUrl(thumbnailOf(name)));
  const [broken, setBroken] = useState(false);
  if (broken) return <span className="admin-thumb placeholder" aria-hidden="true" />;
  return (
    <img
      className="admin-thumb"
      src={src}
      alt=""
      width={48}
      height={48}
      loading="lazy"
      // Older uploads may lack a thumbnail: fall back to the photo itself, then to a blank tile.
      onError={() => (src.endsWith("-thumb.jpg") ? setSrc(imageUrl(name)) : setBroken(true))}
    />
  );
}
