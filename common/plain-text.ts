/**
 * Characters a name or a free text may not hold, though they look like nothing: the bidirectional
 * controls (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates), which reorder what
 * follows them (`Gina\u202Eevil` shows as "Ginalive" in the organiser's list and the CSV), and the
 * line and paragraph separators (U+2028, U+2029), which break lines where no line break is allowed.
 * The zero-width joiner and non-joiner (U+200D, U+200C) are not among them: Devanagari, Gurmukhi
 * and other Indic names need them (issue 46).
 */
export const INVISIBLE_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u2028\u2029]/u;

/** The refusal, as a fragment that follows the field's name ("The name must not contain …"). */
export const INVISIBLE_CONTROLS_MESSAGE =
  "must not contain invisible direction or line-separator characters (U+202A–U+202E, U+2066–U+2069, U+2028, U+2029)";

/** For `.refine`: true when the text holds none of them. */
export const withoutInvisibleControls = (value: string) => !INVISIBLE_CONTROLS.test(value);
