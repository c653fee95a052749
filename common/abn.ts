/**
 * The Australian Business Number check (the ATO's published algorithm): 11 digits; subtract 1 from
 * the first, weight the digits 10, 1, 3, 5, …, 19, and the sum is a multiple of 89. Spaces are
 * allowed, as ABNs are usually written `51 824 753 556`.
 */
const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19] as const;

export function isValidAbn(input: string): boolean {
  const digits = input.replace(/ /g, "");
  if (!/^\d{11}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 11; i++) {
    const d = Number(digits[i]) - (i === 0 ? 1 : 0);
    sum += d * (WEIGHTS[i] ?? 0);
  }
  return sum % 89 === 0;
}

/** `51824753556` as `51 824 753 556`, the way an ABN is printed. */
export function formatAbn(input: string): string {
  const d = input.replace(/ /g, "");
  return `${d.slice(0, 2)} ${d.slice(2, 5)} ${d.slice(5, 8)} ${d.slice(8, 11)}`;
}
