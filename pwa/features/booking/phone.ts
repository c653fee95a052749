/** `+61412345678` as `+61 412 345 678`. */
export const formatPhone = (e164: string) => e164.replace(/^\+61(\d{3})(\d{3})(\d{3})$/, "+61 $1 $2 $3");
