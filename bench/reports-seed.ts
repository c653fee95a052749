import type { EventFormat } from "../common/formats.ts";
import { wallClockToUtc } from "../common/venue-time-input.ts";
import type { Db } from "../db/client.ts";
import { random } from "../test/seeded-random.ts";

// Five years of a busy organiser for the reports bench (bench/reports.ts, issue 51): nights from July
// 2020 to June 2025 on Sydney's clock, every one of them past, written the way the app leaves them
// (paid bookings with their tax invoices, refunds with their adjustment notes, who came and how many
// dates each had written at the end of the night, the ratings, invitations and the bookings made
// through their links). Seeded, so every run measures the same rows. One transaction of prepared
// statements on the connection: a minute of the app's own inserts becomes a few seconds.

export const SEED = {
  events: 1_500,
  bookings: 60_000,
  ratings: 600_000,
  repeatGuests: 20_000,
  /** The months seeded, both included: what the bench asks every report for. */
  from: "2020-07",
  to: "2025-06",
  zone: "Australia/Sydney",
} as const;

const DAY = 86_400_000;
const HOUR = 3_600_000;
const CODES = ["FRIENDS10", "EARLY5", "VIP20", "SPRING", "RADIO", "WELCOME", "STUDENT", "BDAY"] as const;
const ROUNDS = 20;

type Need = { side: "female" | "male" | "any"; released: boolean };
type Night = {
  id: number;
  format: EventFormat;
  startsAt: number;
  createdAt: number;
  cancelled: boolean;
  offersFriend: boolean;
  priceCents: number;
  byside: { female: number; male: number } | null;
  earlyBird: { cents: number; until: number } | null;
  needs: Need[];
};

/** What was written, for the bench's row labels. */
export type Seeded = {
  events: number;
  bookings: number;
  ratings: number;
  repeatGuests: number;
  documents: number;
  announcements: number;
  outbox: number;
};

/** Seeds `db` (freshly migrated, empty) and says how much it wrote. `guestKey` is api/lib/guest-key.ts's. */
export function seedFiveYears(db: Db, guestKey: (phone: string) => string): Seeded {
  const sqlite = db.$client;
  let seeded: Seeded | undefined;
  sqlite.transaction(() => {
    seeded = seed(db, guestKey);
  })();
  return seeded!;
}

function seed(db: Db, guestKey: (phone: string) => string): Seeded {
  const sqlite = db.$client;
  const rnd = random(51);
  const { next, int } = rnd;
  const chance = (p: number) => next() < p;
  const shuffle = <T>(list: T[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = int(0, i);
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };

  // 1. The nights, evenly over the five years, at 7 pm on Sydney's clock.
  const firstDay = Date.UTC(2020, 6, 1);
  const days = (Date.UTC(2025, 6, 1) - firstDay) / DAY;
  const insertEvent = sqlite.prepare(`insert into events (name, image_name, starts_at, time_zone, address, price_cents,
    duration_hours, format, offers_friend, from_age, to_age, price_male_cents, price_female_cents,
    early_bird_discount_cents, early_bird_until, total_seats, seats_male, seats_female, status, started_at, ended_at,
    results_released_at, personal_data_erased_at, created_at)
    values (@name, 'bench.jpg', @startsAt, '${SEED.zone}', '1 George St, Sydney NSW 2000', @priceCents, 2.5, @format,
    @offersFriend, 25, 39, @priceMale, @priceFemale, @earlyCents, @earlyUntil, 0, null, null, @status, @startedAt,
    @endedAt, @releasedAt, @erasedAt, @createdAt)`);
  const nights: Night[] = [];
  for (let i = 0; i < SEED.events; i++) {
    const date = new Date(firstDay + Math.floor((i * days) / SEED.events) * DAY).toISOString().slice(0, 10);
    const startsAt = wallClockToUtc({ date, hour: 19, minute: 0 }, SEED.zone);
    const r = next();
    const format: EventFormat = r < 0.7 ? "women_men" : r < 0.88 ? "one_group" : "mixed";
    const priceCents = 3900 + 500 * int(0, 6);
    const byside =
      format === "women_men" && chance(0.25) ? { female: priceCents - 1000, male: priceCents + 500 } : null;
    const createdAt = startsAt - int(30, 60) * DAY;
    const earlyBird = chance(0.5) ? { cents: 1000, until: startsAt - 14 * DAY } : null;
    const cancelled = chance(0.02);
    // 32 to 48 bookings a night (held and lapsed, paid, refunded, cancelled): 40 on average.
    const count = int(32, 48);
    // 6 in 100 holds lapse unpaid: numbers that never paid, so they are no one's repeat visit.
    const needs: Need[] = Array.from({ length: count }, (_, n) => ({
      side: format === "women_men" ? (n % 2 === 0 ? "female" : "male") : "any",
      released: chance(0.06),
    }));
    const offersFriend = chance(0.3);
    const ended = !cancelled;
    const id = Number(
      insertEvent.run({
        name: `Speed dating night ${i + 1}`,
        startsAt,
        priceCents,
        format,
        offersFriend: offersFriend ? 1 : 0,
        priceMale: byside?.male ?? null,
        priceFemale: byside?.female ?? null,
        earlyCents: earlyBird?.cents ?? null,
        earlyUntil: earlyBird?.until ?? null,
        status: cancelled ? "cancelled" : "ended",
        startedAt: ended ? startsAt : null,
        endedAt: ended ? startsAt + 2.5 * HOUR : null,
        releasedAt: ended ? startsAt + 17 * HOUR : null,
        erasedAt: startsAt + 90 * DAY,
        createdAt,
      }).lastInsertRowid,
    );
    nights.push({
      id,
      format,
      startsAt,
      createdAt,
      cancelled,
      offersFriend,
      priceCents,
      byside,
      earlyBird,
      needs,
    });
  }
  // Exactly SEED.bookings: take off or add one booking at nights picked at random.
  let total = nights.reduce((n, e) => n + e.needs.length, 0);
  while (total !== SEED.bookings) {
    const night = nights[int(0, nights.length - 1)]!;
    const step = total > SEED.bookings ? -1 : 1;
    if (step < 0) night.needs.pop();
    else
      night.needs.push({
        side: night.format === "women_men" ? (night.needs.length % 2 === 0 ? "female" : "male") : "any",
        released: false,
      });
    total += step;
  }

  // 2. The guests: SEED.repeatGuests numbers that pay for 2 to 6 nights, the rest of the paid bookings
  // by numbers that pay once. Women and men each take the seats of their side at Women meet men, and
  // fill the One group and Mixed nights with the few guests who are non-binary.
  const needCount = { female: 0, male: 0, any: 0 };
  let paying = 0;
  for (const night of nights)
    for (const need of night.needs)
      if (!need.released) {
        needCount[need.side]++;
        paying++;
      }
  const quotas: number[] = [];
  for (let g = 0; g < SEED.repeatGuests; g++) {
    const r = next();
    quotas.push(r < 0.6 ? 2 : r < 0.85 ? 3 : r < 0.95 ? 4 : 6);
  }
  const repeatSlots = quotas.reduce((n, q) => n + q, 0);
  for (let g = 0; g < paying - repeatSlots; g++) quotas.push(1);
  const people = shuffle(
    quotas.map((quota, id) => ({ id, quota, gender: "female" as "female" | "male" | "nonbinary" })),
  );
  const femaleTarget = needCount.female + Math.round(needCount.any * 0.47);
  const maleTarget = needCount.male + Math.round(needCount.any * 0.47);
  const slots = { female: [] as number[], male: [] as number[], nonbinary: [] as number[] };
  for (const person of people) {
    person.gender =
      slots.female.length < femaleTarget ? "female" : slots.male.length < maleTarget ? "male" : "nonbinary";
    for (let k = 0; k < person.quota; k++) slots[person.gender].push(person.id);
  }
  for (const list of Object.values(slots)) shuffle(list);
  const genderOf = new Map(people.map((p) => [p.id, p.gender]));
  const phoneOf = (person: number) => `+6140${String(person).padStart(7, "0")}`;
  const keyOf = new Map<number, string>();

  // 3. Bookings with their attendee rows, payments, documents, refunds, attendance and links.
  const insertUser = sqlite.prepare(`insert into users (name, email, phone, gender, wants_to_meet, image_name,
    thumb_name, date_of_birth, created_at) values (@name, @email, @phone, @gender, @wantsToMeet, 'bench.jpg',
    'bench-thumb.jpg', '1992-03-14', @createdAt)`);
  const insertBooking = sqlite.prepare(`insert into bookings (user_id, event_id, phone, status, hold_expires_at,
    held_since, amount_cents, list_price_cents, early_bird_cents, discount_cents, promo_code_id, seat_released,
    payment_intent_id, unique_code, confirmation_sent_at, checked_in_at, left_at, came, dates, guest_key, paid_at,
    announcement_id, created_at) values (@userId, @eventId, @phone, @status, @holdExpiresAt, @heldSince, @amount,
    @list, @earlyBird, @discount, @promoCodeId, @seatReleased, @paymentIntentId, @uniqueCode, @paidAt, @checkedInAt,
    @leftAt, @came, @dates, @guestKey, @paidAt, @announcementId, @heldSince)`);
  const insertPromo = sqlite.prepare(`insert into promo_codes (event_id, code, percent_off, amount_off_cents,
    created_at) values (?, ?, ?, ?, ?)`);
  const insertRefund = sqlite.prepare(`insert into refunds (booking_id, payment_intent_id, refund_id, amount_cents,
    reason, created_at) values (?, ?, ?, ?, ?, ?)`);
  const insertDocument = sqlite.prepare(`insert into documents (number, kind, booking_id, payment_intent_id,
    refund_id, relates_to, issued_at, seller_name, seller_abn, seller_address, gst_registered, event_name,
    event_starts_at, event_time_zone, lines, total_cents, gst_cents) values (@number, @kind, @bookingId,
    @paymentIntentId, @refundId, @relatesTo, @issuedAt, 'Saathi Speed Dating', '51 824 753 556', 'Sydney NSW 2000',
    1, @eventName, @eventStartsAt, '${SEED.zone}', @lines, @total, @gst)`);
  const insertAnnouncement = sqlite.prepare(`insert into announcements (event_id, audience, channels, text,
    recipients_sms, recipients_email, created_at) values (?, '{"pastGuests":true}', '["sms","email"]', ?, ?, ?, ?)`);
  const insertOutbox = sqlite.prepare(`insert into outbox_messages (dedupe_key, channel, "to", body, status, purpose,
    announcement_id, booking_id, attempts, created_at, sent_at) values (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`);
  const insertRating = sqlite.prepare(`insert into feedback (from_user_id, to_user_id, event_id, value, client_ts,
    updated_at, rated_by) values (?, ?, ?, ?, ?, ?, 'guest')`);
  const insertKept = sqlite.prepare(`insert or replace into kept_details (phone, name, email, date_of_birth, gender,
    image_name, thumb_name, kept_at, last_booked_at) values (?, ?, ?, '1992-03-14', ?, 'kept.jpg', 'kept-thumb.jpg',
    ?, ?)`);

  let documentCount = 0;
  let outboxCount = 0;
  let announcementCount = 0;
  let ratingCount = 0;
  const gstOf = (cents: number) => Math.round(cents / 11);
  const document = (row: {
    kind: "invoice" | "adjustment";
    bookingId: number;
    paymentIntentId: string;
    refundId: string | null;
    relatesTo: string | null;
    issuedAt: number;
    night: Night;
    total: number;
  }) => {
    documentCount++;
    const number = `INV-${String(documentCount).padStart(6, "0")}`;
    const { night, ...rest } = row;
    insertDocument.run({
      ...rest,
      number,
      eventName: `Speed dating night ${night.id}`,
      eventStartsAt: night.startsAt,
      lines: JSON.stringify([{ label: `Ticket: Speed dating night ${night.id}`, amountCents: row.total }]),
      gst: gstOf(row.total),
    });
    return number;
  };
  const outbox = (row: {
    channel: "sms" | "email";
    to: string;
    status: string;
    purpose: "transactional" | "marketing";
    announcementId: number | null;
    bookingId: number | null;
    at: number;
  }) => {
    outboxCount++;
    insertOutbox.run(
      `bench-${outboxCount}`,
      row.channel,
      row.to,
      row.purpose === "marketing" ? "A new night: book at the link" : "Your seat is booked",
      row.status,
      row.purpose,
      row.announcementId,
      row.bookingId,
      row.at,
      row.status === "sent" ? row.at + 1_000 : null,
    );
  };

  let nightsToRate = nights.filter((n) => !n.cancelled).length;
  let lapsed = 0;
  const setDates = sqlite.prepare("update bookings set dates = ? where id = ?");
  const setSeats = sqlite.prepare("update events set total_seats = ?, seats_male = ?, seats_female = ? where id = ?");
  for (const night of nights) {
    // Promo codes at two nights in five, an invitation at three in five, three weeks before.
    const codes = chance(0.4)
      ? CODES.filter(() => chance(0.2))
          .slice(0, 2)
          .map((code) => {
            const percent = chance(0.5) ? 10 * int(1, 2) : null;
            const id = Number(
              insertPromo.run(night.id, code, percent, percent ? null : 500, night.createdAt).lastInsertRowid,
            );
            return { id, percent, amountOff: percent ? 0 : 500 };
          })
      : [];
    let announcement: { id: number; at: number } | null = null;
    if (chance(0.6)) {
      const at = night.startsAt - 21 * DAY;
      const sms = int(80, 250);
      const email = int(100, 350);
      const id = Number(insertAnnouncement.run(night.id, "A new night", sms, email, at).lastInsertRowid);
      announcementCount++;
      for (let m = 0; m < sms + email; m++) {
        const r = next();
        outbox({
          channel: m < sms ? "sms" : "email",
          to: m < sms ? phoneOf(int(0, people.length - 1)) : `guest${m}@example.com`,
          status: r < 0.9 ? "sent" : r < 0.97 ? "suppressed" : "failed",
          purpose: "marketing",
          announcementId: id,
          bookingId: null,
          at: at + m * 2_000,
        });
      }
      announcement = { id, at };
    }

    const here = new Set<number>();
    const guests: { userId: number; gender: string; came: boolean; bookingId: number }[] = [];
    const sold = { female: 0, male: 0, other: 0 };
    for (const { side, released } of night.needs) {
      let person: number;
      let personGender: "female" | "male" | "nonbinary";
      if (released) {
        person = people.length + lapsed++;
        personGender = side === "any" ? (chance(0.5) ? "female" : "male") : side;
      } else {
        // A woman or a man for their side; anyone at One group and Mixed, as long as each side keeps
        // enough for the Women meet men seats still to come.
        const from: (keyof typeof slots)[] =
          side === "any"
            ? (["female", "male", "nonbinary"] as const).filter(
                (g) => slots[g].length > (g === "nonbinary" ? 0 : needCount[g]),
              )
            : [side];
        const list = slots[from[int(0, from.length - 1)]!];
        person = list.pop()!;
        // One seat per number per night: a number already here goes back under the pile.
        for (let tries = 0; here.has(person) && tries < 5; tries++) {
          list.unshift(person);
          person = list.pop()!;
        }
        if (side !== "any") needCount[side]--;
        personGender = genderOf.get(person)!;
      }
      here.add(person);
      const phone = phoneOf(person);
      const gender = night.format === "one_group" ? "unasked" : personGender;
      const heldSince = night.createdAt + Math.floor(next() * (night.startsAt - HOUR - night.createdAt));
      const userId = Number(
        insertUser.run({
          name: `Guest ${person}`,
          email: `guest${person}@example.com`,
          phone,
          gender,
          wantsToMeet: night.format === "mixed" ? (["women", "men", "everyone"] as const)[int(0, 2)] : null,
          createdAt: heldSince,
        }).lastInsertRowid,
      );
      // Of those paid, 4.5 in 100 are refunded before the night, 1.5 in 100 cancelled too late for a
      // refund, and at a cancelled night everyone is refunded.
      const r = next();
      const status = released
        ? "released"
        : night.cancelled || r < 0.045
          ? "refunded"
          : r < 0.06
            ? "cancelled"
            : "paid";
      const paidAt = status === "released" ? null : heldSince + int(1, 9) * 60_000;
      const priceSide = gender === "female" || gender === "male" ? gender : null;
      const listCents = night.byside && priceSide ? night.byside[priceSide] : night.priceCents;
      const earlyBird = night.earlyBird && heldSince < night.earlyBird.until ? night.earlyBird.cents : 0;
      const code = codes.length > 0 && chance(0.12) ? codes[int(0, codes.length - 1)]! : null;
      const promo = code
        ? code.percent
          ? Math.round(((listCents - earlyBird) * code.percent) / 100)
          : code.amountOff
        : 0;
      const amount = listCents - earlyBird - promo;
      const paymentIntentId = paidAt === null ? null : `pi_bench_${userId}`;
      const came = night.cancelled ? null : status === "paid" ? chance(0.92) : status === "released" ? null : false;
      if (paidAt !== null && !keyOf.has(person)) keyOf.set(person, guestKey(phone));
      const bookingId = Number(
        insertBooking.run({
          userId,
          eventId: night.id,
          phone,
          status,
          holdExpiresAt: heldSince + 15 * 60_000,
          heldSince,
          amount,
          list: listCents,
          earlyBird,
          discount: earlyBird + promo,
          promoCodeId: code?.id ?? null,
          seatReleased: status === "refunded" ? 1 : 0,
          paymentIntentId,
          uniqueCode: paidAt === null ? null : `T${userId}`,
          checkedInAt: came ? night.startsAt + int(0, 40) * 60_000 : null,
          leftAt: came && chance(0.03) ? night.startsAt + 2 * HOUR : null,
          came: came === null ? null : came ? 1 : 0,
          dates: came === null ? null : 0,
          guestKey: paidAt === null ? null : keyOf.get(person)!,
          paidAt,
          announcementId:
            announcement && paidAt !== null && paidAt > announcement.at && chance(0.3) ? announcement.id : null,
        }).lastInsertRowid,
      );
      if (paymentIntentId !== null && paidAt !== null) {
        const invoice = document({
          kind: "invoice",
          bookingId,
          paymentIntentId,
          refundId: null,
          relatesTo: null,
          issuedAt: paidAt,
          night,
          total: amount,
        });
        outbox({
          channel: "sms",
          to: phone,
          status: "sent",
          purpose: "transactional",
          announcementId: null,
          bookingId,
          at: paidAt,
        });
        if (status === "refunded") {
          // Before the night as the guest cancels, or the day the organiser cancelled the night.
          const at = night.cancelled
            ? night.startsAt - 2 * DAY
            : paidAt + Math.floor(next() * (night.startsAt - paidAt));
          const refundId = `re_bench_${bookingId}`;
          insertRefund.run(
            bookingId,
            paymentIntentId,
            refundId,
            amount,
            night.cancelled ? "admin" : "guest_cancel",
            at,
          );
          document({
            kind: "adjustment",
            bookingId,
            paymentIntentId,
            refundId,
            relatesTo: invoice,
            issuedAt: at,
            night,
            total: amount,
          });
        }
        if (quotas[person]! > 1 && chance(0.3))
          insertKept.run(phone, `Guest ${person}`, `guest${person}@example.com`, personGender, paidAt, paidAt);
      }
      if (came) guests.push({ userId, gender, came, bookingId });
      if (status === "paid") sold[gender === "female" || gender === "male" ? gender : "other"]++;
    }
    // The seats: two nights in five sold out (as many seats as were sold), the others a few short;
    // Women meet men with each side's own.
    const spare = chance(0.4) ? 0 : int(2, 8);
    const balanced = night.format === "women_men";
    const women = sold.female + Math.floor(spare / 2);
    const men = sold.male + Math.ceil(spare / 2);
    setSeats.run(
      sold.female + sold.male + sold.other + spare,
      balanced ? men : null,
      balanced ? women : null,
      night.id,
    );

    // The rounds and the ratings: at Women meet men each woman meets a man a round, elsewhere
    // everyone meets around the room, ROUNDS rounds; each guest rates the partners met, until this
    // night's share of SEED.ratings.
    if (night.cancelled) continue;
    const pairs: [number, number][] = [];
    if (night.format === "women_men") {
      const women = guests.filter((g) => g.gender === "female");
      const men = guests.filter((g) => g.gender === "male");
      const [few, many] = women.length <= men.length ? [women, men] : [men, women];
      for (let round = 0; round < Math.min(ROUNDS, many.length); round++)
        for (let i = 0; i < few.length; i++) pairs.push([few[i]!.userId, many[(i + round) % many.length]!.userId]);
    } else {
      for (let round = 1; round <= Math.min(ROUNDS / 2, Math.floor((guests.length - 1) / 2)); round++)
        for (let i = 0; i < guests.length; i++)
          pairs.push([guests[i]!.userId, guests[(i + round) % guests.length]!.userId]);
    }
    const dates = new Map<number, number>();
    for (const [a, b] of pairs) {
      dates.set(a, (dates.get(a) ?? 0) + 1);
      dates.set(b, (dates.get(b) ?? 0) + 1);
    }
    for (const g of guests) setDates.run(dates.get(g.userId) ?? 0, g.bookingId);
    let quota = Math.round((SEED.ratings - ratingCount) / nightsToRate--);
    const choose = () => {
      const r = next();
      return r < 0.4 ? "like" : night.offersFriend && r < 0.55 ? "friend" : "dislike";
    };
    const at = night.startsAt + 2 * HOUR;
    for (const [a, b] of pairs) {
      for (const [from, to] of [
        [a, b],
        [b, a],
      ] as const) {
        if (quota <= 0) break;
        insertRating.run(from, to, night.id, choose(), at, at);
        quota--;
        ratingCount++;
      }
    }
  }
  sqlite.prepare("insert into document_counter (id, last) values (1, ?)").run(documentCount);
  const repeatGuests = sqlite
    .prepare(
      "select count(*) from (select guest_key from bookings where guest_key is not null group by guest_key having count(*) > 1)",
    )
    .pluck()
    .get() as number;
  return {
    events: nights.length,
    bookings: SEED.bookings,
    ratings: ratingCount,
    repeatGuests,
    documents: documentCount,
    announcements: announcementCount,
    outbox: outboxCount,
  };
}
