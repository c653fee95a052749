import { describe, expect, it } from "vitest";
import { dollars, reportCsv } from "./csv.ts";

describe("a report's CSV", () => {
  const columns = [
    { header: "what", cell: (r: { what: string; cents: number }) => r.what },
    { header: "amount", cell: (r: { what: string; cents: number }) => dollars(r.cents) },
  ];

  it("writes plain numbers as numbers, a refund's negative one too, so a spreadsheet sums them", () => {
    expect(reportCsv(columns, [{ what: "refunds", cents: -2200 }])).toBe("what,amount\r\nrefunds,-22.00\r\n");
  });

  it("still guards any other cell that a spreadsheet would run as a formula", () => {
    const csv = reportCsv(columns, [
      { what: "-1+2", cents: 5 },
      { what: "=HYPERLINK(1)", cents: 0 },
      { what: "@SUM(A1)", cents: 100 },
    ]);
    expect(csv).toBe("what,amount\r\n'-1+2,0.05\r\n'=HYPERLINK(1),0.00\r\n'@SUM(A1),1.00\r\n");
  });
});
