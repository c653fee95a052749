import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { contactShares, type ShareChoice } from "../../db/rounds-schema.ts";
import { users } from "../../db/schema.ts";
import { contactOf, defaultShareOf, type SharedContact, shareToward } from "./contact-sharing.ts";
import {
  type Ctx,
  choicesAround,
  openReport,
  type Partner,
  paidOfOtherGender,
  participantOf,
  reportGroup,
  warm,
} from "./feedback.ts";
import type { feedbackReport } from "./night-schemas.ts";

// The report, read through the end-of-night link once the results are out: the matches and likes
// of one guest, with the contact details each chose to share (contact-sharing.ts).

/**
 * A person in the report: their contact details only as they chose to share them with this guest
 * (`phone`, `email` or `instagram`), or `sharedNothing` where they chose **Nothing**; `myShare` (and
 * `myInstagram`) on a match: what this guest lets them see.
 */
export type ReportEntry = Partner &
  SharedContact & {
    myShare?: ShareChoice;
    myInstagram?: string | null;
  };
export type FeedbackReport = z.output<typeof feedbackReport>;

/**
 * The report: mutual matches (Date and Date), friend matches (Date or Friend both ways, where the
 * event offers Friend), who liked this guest, whom they liked. Someone's contact details show only
 * where they chose Date or Friend for this guest, this guest did not say No to them, and they did not
 * choose **Nothing** for them (issue 37): never to someone they did not want to hear from.
 */
export function getFeedbackReport(
  ctx: Ctx,
  input: { userId: number; eventId: number; token: unknown },
): FeedbackReport {
  const event = openReport(ctx, input);
  const seat = participantOf(ctx.db, input.userId, input.eventId);
  // Every paid attendee they could have met, wider than the partner rule: a like saved before the
  // door or a plan narrowed the partners still counts.
  const partners = paidOfOtherGender(ctx.db, input.userId, input.eventId, seat);
  const { mine, theirs } = choicesAround(ctx.db, input.eventId, input.userId);
  const me = ctx.db.select({ phone: users.phone }).from(users).where(eq(users.id, input.userId)).get()!;
  const myDefault = defaultShareOf(ctx.db, { userId: input.userId, phone: me.phone }, event);

  const report: FeedbackReport = { mutual: [], friends: [], likedme: [], iliked: [], offersFriend: event.offersFriend };
  for (const { phone, email, ...partner } of partners) {
    const group = reportGroup(mine.get(partner.id), theirs.get(partner.id));
    if (group === null) continue;
    const mayContact = warm(theirs.get(partner.id)) && mine.get(partner.id) !== "dislike";
    const contact = mayContact
      ? contactOf(shareToward(ctx.db, event, partner.id, input.userId, phone), { phone, email })
      : {};
    const entry: ReportEntry = { ...partner, ...contact };
    if (group === "mutual" || group === "friends") {
      const myShare = ctx.db
        .select({ share: contactShares.share, instagram: contactShares.instagram })
        .from(contactShares)
        .where(
          and(
            eq(contactShares.eventId, input.eventId),
            eq(contactShares.fromUserId, input.userId),
            eq(contactShares.toUserId, partner.id),
          ),
        )
        .get();
      const setting = myShare ?? myDefault;
      entry.myShare = setting.share;
      entry.myInstagram = setting.instagram;
    }
    report[group].push(entry);
  }
  return report;
}
