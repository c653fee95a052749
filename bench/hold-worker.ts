import { parentPort, workerData } from "node:worker_threads";
import { holdSeat } from "../api/booking/holds.ts";
import { openDatabase } from "../db/client.ts";

// One of several threads racing for seats of the same event in the same SQLite file, each with its
// own connection, as separate server processes would.
const { dbPath, eventId, seconds, worker } = workerData as {
  dbPath: string;
  eventId: number;
  seconds: number;
  worker: number;
};
const db = openDatabase(dbPath);
let held = 0;
let refused = 0;
const deadline = performance.now() + seconds * 1000;
let i = 0;
while (performance.now() < deadline) {
  i++;
  const phone = `+6145${String(worker).padStart(2, "0")}${String(i).padStart(5, "0")}`.slice(0, 12);
  try {
    holdSeat(db, {
      eventId,
      holdMinutes: 30,
      now: Date.now(),
      attendee: {
        name: `Buyer ${worker}-${i}`,
        email: `b${worker}.${i}@example.com`,
        phone,
        gender: i % 2 ? "male" : "female",
        imageName: `${"0".repeat(32)}.jpg`,
        thumbName: `${"0".repeat(32)}-thumb.jpg`,
      },
    });
    held++;
  } catch {
    refused++;
  }
}
db.$client.close();
parentPort?.postMessage({ held, refused });
