// The release run's floor (bench/README.md, "The rush's floor"): a bare node:http server that answers
// each details form as soon as its first bytes arrive, with nothing of the app (no routing, no form
// parsing, no cookie check, no database): the first 40 get 200, the rest 409. Run it in the release
// run's place with
//   BENCH_BUYERS=2000 BENCH_SERVER_ARGS='["bench/bare-release-server.mjs"]' npm run bench -- release
// to see what the machine itself allows: the buyers, the kernel and one Node thread reading 2,000
// uploads. It speaks bench/release.ts's start-up line and its "photos?" question, and stores nothing.
import { createServer } from "node:http";

const SEATS = 40;
let answered = 0;
const server = createServer((req, res) => {
  let first = true;
  req.on("data", () => {
    if (!first) return;
    first = false;
    const held = answered++ < SEATS;
    const body = held ? '{"success":true}' : '{"error":"sold_out","message":"This event is sold out."}';
    res.writeHead(held ? 200 : 409, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, () => {
  const { port } = server.address();
  console.log(JSON.stringify({ port, eventId: 1, eventName: "Release Night", dir: "/nonexistent-bare-release" }));
});
process.stdin.on("data", () => console.log(JSON.stringify({ photosStored: true })));
