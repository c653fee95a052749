/**
 * The settings of a night's rounds: their defaults and limits, one set for the server's checks
 * (api/night/rounds-routes.ts) and the host's form, so the form never lets through what the server refuses.
 */
export const ROUNDS_DEFAULTS = {
  roundMinutes: 5,
  breakMinutes: 1,
  /** No cap: as many rounds as it takes for everyone present to meet everyone. */
  maxRounds: null,
  /** Who keeps their table all night; the other side moves. */
  seated: "female",
} as const satisfies RoundsSettings;

export const ROUNDS_LIMITS = {
  roundMinutes: { min: 1, max: 30 },
  breakMinutes: { min: 0, max: 10 },
  maxRounds: { min: 1, max: 200 },
  /**
   * At most this many women, and this many men, present for the planner. A re-plan's cost grows
   * with the fourth power of a side (docs/decisions/018-rounds.md, figures from bench/rounds.ts):
   * 100 a side re-plans in about 0.2 s on the request path, 200 a side took 2.4 s.
   */
  presentPerSide: 100,
} as const;

export type RoundsSettings = {
  roundMinutes: number;
  breakMinutes: number;
  maxRounds: number | null;
  seated: "female" | "male";
};
