import { type EventFormat, FORMAT_LABELS, splitsByGender } from "../../common/formats.ts";
import { hasMinimum, type MinimumNumbers, minimumByOf } from "../../common/minimum-numbers.ts";
import { BadRequest } from "../lib/errors.ts";

/** The minimum fields as save-event and update-event hand them over: undefined is left out (kept on an edit). */
export type MinimumInput = {
  minimumFemale?: number | null;
  minimumMale?: number | null;
  minimumTotal?: number | null;
  minimumBy?: number | null;
};

/**
 * The columns of Go ahead only with at least (issue 52) after an add or an edit, checked: women and
 * men at Women meet men, people at one pool; no count above the seats it is counted against; decided
 * no later than the start. Left out on an edit, a count is kept, unless a new format has no such side
 * (as the seat plan is cleared). 400 otherwise, naming the field.
 */
export function minimumColumns(
  input: MinimumInput,
  kept: MinimumNumbers | undefined,
  night: {
    format: EventFormat;
    startsAt: number;
    totalSeats: number;
    seatsMale: number | null;
    seatsFemale: number | null;
  },
): MinimumNumbers {
  const byGender = splitsByGender(night.format);
  const pick = (field: keyof MinimumInput, fits: boolean) => {
    const given = input[field];
    if (given !== undefined) return given;
    return fits ? (kept?.[field] ?? null) : null;
  };
  const columns: MinimumNumbers = {
    minimumFemale: pick("minimumFemale", byGender),
    minimumMale: pick("minimumMale", byGender),
    minimumTotal: pick("minimumTotal", !byGender),
    minimumBy: pick("minimumBy", true),
  };
  const label = FORMAT_LABELS[night.format];
  if (byGender && columns.minimumTotal !== null) {
    throw BadRequest(`minimumTotal: ${label} goes ahead on women and men: give minimumFemale and minimumMale instead.`);
  }
  if (!byGender && (columns.minimumFemale !== null || columns.minimumMale !== null)) {
    throw BadRequest(`minimumFemale, minimumMale: ${label} has one pool: give minimumTotal instead.`);
  }
  const over = (field: string, count: number | null, seats: number) => {
    if (count !== null && count > seats) throw BadRequest(`${field}: can't be more than the ${seats} seats.`);
  };
  over("minimumFemale", columns.minimumFemale, night.seatsFemale ?? night.totalSeats);
  over("minimumMale", columns.minimumMale, night.seatsMale ?? night.totalSeats);
  over("minimumTotal", columns.minimumTotal, night.totalSeats);
  if (columns.minimumBy !== null && columns.minimumBy > night.startsAt) {
    throw BadRequest("minimumBy: the numbers are decided no later than the start.");
  }
  return columns;
}

/**
 * The organiser's view of the minimum (admin-events, admin-event/{id}): the counts, and when they are
 * decided (ISO, UTC; the default filled in) while any is set, else null.
 */
export const minimumReply = (event: MinimumNumbers & { startsAt: number }) => ({
  minimumFemale: event.minimumFemale,
  minimumMale: event.minimumMale,
  minimumTotal: event.minimumTotal,
  minimumBy: hasMinimum(event) ? new Date(minimumByOf(event)).toISOString() : null,
});
