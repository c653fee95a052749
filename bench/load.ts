import { Agent, request } from "node:http";

export type LoadResult = { requests: number; seconds: number; rps: number; p50: number; p99: number; errors: number };

/**
 * A small closed-loop load generator: `connections` keep-alive connections each send the next
 * request as soon as the previous answer is read, for `seconds`. Bounded in time and count.
 */
export async function load(
  url: string,
  { connections = 32, seconds = 5, maxRequests = 2_000_000 } = {},
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const once = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode === 200) latencies.push(performance.now() - t0);
          else errors++;
          resolve();
        });
      });
      req.on("error", () => {
        errors++;
        resolve();
      });
      req.end();
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline && latencies.length + errors < maxRequests) await once();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    seconds: elapsed,
    rps: latencies.length / elapsed,
    p50: pct(50),
    p99: pct(99),
    errors,
  };
}
