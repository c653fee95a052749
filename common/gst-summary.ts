/**
 * The line under the GST summary for the BAS (issue 51, part 2), said once: the server's report
 * (api/organiser/reports/gst.ts) and the desk's Reports tab both show it.
 */
export const GST_SUMMARY_NOTE =
  "A summary for your accountant: it is not a BAS and is not lodged anywhere. G1 is total sales including GST, 1A the GST on sales; refunds are taken off in the quarter they were made.";
