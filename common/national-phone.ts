/**
 * `+61412345678` as `0412 345 678`: the way an Australian reads and dials a number, and text (not a
 * number that loses its leading 0, nor a `+` cell a spreadsheet would run) in a CSV. Landlines as
 * `02 9876 5432`; numbers the app never stores (not +61) come back as they are. Pure, so the API's
 * export and the PWA's screens share it.
 */
export function nationalPhone(e164: string): string {
  const mobile = /^\+614(\d{2})(\d{3})(\d{3})$/.exec(e164);
  if (mobile) return `04${mobile[1]} ${mobile[2]} ${mobile[3]}`;
  const landline = /^\+61([2378])(\d{4})(\d{4})$/.exec(e164);
  return landline ? `0${landline[1]} ${landline[2]} ${landline[3]}` : e164;
}
