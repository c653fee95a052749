import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { boundsOf, type FEWER_THAN_3, guests, type Period } from "./period.ts";

/**
 * **Prices and codes** (issue 51): the bookings paid in the period and what they brought, by the
 * price they were sold at (docs/decisions/023-prices-and-ages.md): with the early bird or without it;
 * at a women's or men's own price (nights that set one); and with each promo code. Paid bookings as
 * the desk's code table counts them (status paid); revenue is what was charged, the discount what
 * came off the list price. The groups overlap (an early-bird booking may also use a code).
 */
export const PRICE_GROUPS = ["Early-bird", "Without early-bird", "Women's price", "Men's price", "Promo code"] as const;

export type PricesRow = {
  price: (typeof PRICE_GROUPS)[number];
  /** The promo code, on a `Promo code` row. */
  code: string | null;
  bookings: number | typeof FEWER_THAN_3;
  revenueCents: number;
  discountCents: number;
};

export function pricesReport(db: Db, period: Period): PricesRow[] {
  const { first, end } = boundsOf(period);
  // `paid` is read by each of the five groups: materialized, so the bookings are read once.
  const rows = db.all<{
    price: PricesRow["price"];
    code: string | null;
    n: number;
    revenue: number;
    discount: number;
  }>(sql`
    with paid as materialized (
      select b.amount_cents, b.early_bird_cents, b.discount_cents, b.promo_code_id, u.gender,
        (e.price_male_cents is not null or e.price_female_cents is not null) as by_side
      from bookings b join users u on u.id = b.user_id join events e on e.id = b.event_id
      where b.status = 'paid' and b.paid_at >= ${first} and b.paid_at < ${end}),
    grouped as (
      select 1 as o, 'Early-bird' as price, null as code, count(*) as n, sum(amount_cents) as revenue, sum(discount_cents) as discount
        from paid where early_bird_cents > 0
      union all select 2, 'Without early-bird', null, count(*), sum(amount_cents), sum(discount_cents)
        from paid where early_bird_cents = 0
      union all select 3, 'Women''s price', null, count(*), sum(amount_cents), sum(discount_cents)
        from paid where by_side and gender = 'female'
      union all select 4, 'Men''s price', null, count(*), sum(amount_cents), sum(discount_cents)
        from paid where by_side and gender = 'male'
      union all select 5, 'Promo code', pc.code, count(*), sum(paid.amount_cents), sum(paid.discount_cents)
        from paid join promo_codes pc on pc.id = paid.promo_code_id group by pc.code)
    select price, code, n, coalesce(revenue, 0) as revenue, coalesce(discount, 0) as discount
    from grouped order by o, code`);
  return rows.map((r) => ({
    price: r.price,
    code: r.code,
    bookings: guests(r.n),
    revenueCents: r.revenue,
    discountCents: r.discount,
  }));
}
