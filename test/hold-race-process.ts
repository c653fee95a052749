import { createInterface } from "node:readline";
import { holdSeat } from "../api/booking/holds.ts";
import { DomainError } from "../api/lib/errors.ts";
import { openDatabase } from "../db/client.ts";

// One of the processes of test/hold-processes.test.ts: a server's worth of holds on a shared SQLite
// file. On "open" it opens the file (racing the others' opens) and answers "open"; on
// "go <eventId> <attempts>" it tries that many holds with its own phones and prints one JSON line: how
// many it held, which refusal codes it got, and any error that was not a refusal (SQLITE_BUSY would be).
const [dbPath, worker] = process.argv.slice(2) as [string, string];
const unexpected: string[] = [];
let db: ReturnType<typeof openDatabase> | undefined;
console.log("ready");

function describe(error: unknown) {
  const code = (error as { code?: unknown }).code;
  return `${typeof code === "string" ? code : ""} ${(error as Error).message}`.trim();
}

for await (const line of createInterface({ input: process.stdin })) {
  const [word, eventId, attempts] = line.split(" ");
  if (word === "open") {
    try {
      db = openDatabase(dbPath);
    } catch (error) {
      unexpected.push(`open: ${describe(error)}`);
    }
    console.log("open");
    continue;
  }
  if (word !== "go") continue;
  let held = 0;
  const refused: Record<string, number> = {};
  for (let i = 0; db && i < Number(attempts); i++) {
    try {
      holdSeat(db, {
        eventId: Number(eventId),
        holdMinutes: 30,
        now: Date.now(),
        attendee: {
          name: `Buyer ${worker}-${i}`,
          email: `b${worker}.${i}@example.com`,
          phone: `+614${worker.padStart(2, "0")}${String(i).padStart(6, "0")}`,
          gender: i % 2 ? "male" : "female",
          imageName: `${"0".repeat(32)}.jpg`,
          thumbName: `${"0".repeat(32)}-thumb.jpg`,
        },
      });
      held++;
    } catch (error) {
      if (error instanceof DomainError) refused[error.code] = (refused[error.code] ?? 0) + 1;
      else unexpected.push(describe(error));
    }
  }
  db?.$client.close();
  console.log(JSON.stringify({ held, refused, unexpected }));
  break;
}
