import { csvCell } from "../participants-csv.ts";

/** `1234.50`, `-12.05`: cents as dollars with 2 decimals, by integer arithmetic (no float on the way). */
export function dollars(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** A column: its header and how a row's cell is written (money in dollars, counts as they are). */
export type Column<R> = { header: string; cell: (row: R) => string | number };

/** A plain number (`-22.00`, `3`): nothing a spreadsheet could run, so written as it is. */
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * The rows as RFC 4180 CSV under a header row, every cell through the spreadsheet-safe `csvCell` but
 * plain numbers, which stay numbers (a refund's `-22.00` is summed, not read as text).
 */
export function reportCsv<R>(columns: Column<R>[], rows: R[]): string {
  const cell = (c: string | number) => (NUMBER.test(String(c)) ? String(c) : csvCell(String(c)));
  const line = (cells: (string | number)[]) => cells.map(cell).join(",");
  return [line(columns.map((c) => c.header)), ...rows.map((r) => line(columns.map((c) => c.cell(r))))]
    .map((l) => `${l}\r\n`)
    .join("");
}
