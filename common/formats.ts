// Who meets whom at a night (issue 37, docs/decisions/037-formats-on-the-night.md): the format's
// values, and the words the forms, cards, door, CSV and summary use for it.

export const EVENT_FORMATS = ["women_men", "one_group", "mixed"] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];

/** The format select on Add and Edit. */
export const FORMAT_LABELS: Record<EventFormat, string> = {
  women_men: "Women meet men",
  one_group: "One group",
  mixed: "Mixed",
};

/** Only Women meet men splits the seats (and prices and ages) by gender. */
export const splitsByGender = (format: EventFormat) => format === "women_men";

/** `12 seats left`: the words a one-pool night uses on its card, door and summary. */
export const seatsLeftWords = (n: number) => `${n} ${n === 1 ? "seat" : "seats"} left`;
