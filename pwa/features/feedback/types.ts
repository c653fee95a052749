import type { api, Ok } from "../../lib/api.ts";

/** What get-feedback answers: the three disjoint groups of the report, phones only where shared. */
export type FeedbackReport = Ok<(typeof api)["get-feedback"]["$post"]>;
export type ReportEntry = FeedbackReport["mutual"][number];
/** One person on the rating page, as get-participants lists them. */
export type Partner = Omit<Ok<(typeof api)["get-participants"]["$post"]>["participants"][number], "myChoice">;
