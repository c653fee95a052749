export type Logger = (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;

/** One JSON line per entry. Callers never pass codes, tokens or secrets in `fields`. */
export const jsonLogger: Logger = (level, message, fields) => {
  const line = JSON.stringify({ t: new Date().toISOString(), level, message, ...fields });
  if (level === "error") console.error(line);
  else console.log(line);
};

export const silentLogger: Logger = () => {};
