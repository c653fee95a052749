/** What get-participants and get-feedback answer (api/services/feedback.ts). */
export type Partner = { id: number; username: string; image_name: string };
export type ReportEntry = Partner & { phone?: string };
export type FeedbackReport = { mutual: ReportEntry[]; likedme: ReportEntry[]; iliked: ReportEntry[] };
