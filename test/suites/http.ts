import { type IncomingHttpHeaders, request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

/** One request as a test builds it; the body is sent exactly as given (no re-encoding by a client). */
export type RawRequest = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | FormData;
  /**
   * The source address to send from (a loopback address: Linux routes all of 127.0.0.0/8 to lo).
   * An IPv6 one is sent to ::1, the server's port unchanged, so the server must listen on "::".
   */
  localAddress?: string;
};

export type Reply = {
  status: number;
  contentType: string;
  text: string;
  /** Every response header, as node:http reads them (set by `send`). */
  headers?: IncomingHttpHeaders;
};

/**
 * Sends a request with a fixed cookie (not a jar), so a reply's Set-Cookie can never change later
 * requests. node:http rather than fetch: a server may answer an oversized body (413) before reading
 * it and close, which fetch reports as a socket error instead of the answer.
 */
export async function send(baseUrl: string, req: RawRequest, cookie?: string): Promise<Reply> {
  const headers: Record<string, string> = { ...req.headers };
  let body: Buffer | undefined;
  if (req.body instanceof FormData) {
    const encoded = new Request(baseUrl, { method: "POST", body: req.body });
    headers["content-type"] = encoded.headers.get("content-type") ?? "";
    body = Buffer.from(await encoded.arrayBuffer());
  } else if (req.body !== undefined && req.method !== "GET") {
    body = typeof req.body === "string" ? Buffer.from(req.body) : Buffer.from(req.body);
  }
  if (cookie && !Object.keys(headers).some((k) => k.toLowerCase() === "cookie")) headers.cookie = cookie;
  if (body) headers["content-length"] = String(body.length);
  const url = new URL(baseUrl);
  const host = req.localAddress?.includes(":") ? "::1" : url.hostname.replace(/^\[(.*)\]$/, "$1");
  return new Promise((resolve, reject) => {
    let answered = false;
    // A fresh connection each time: a server that answers early and closes must not poison a pooled one.
    const r = request(
      {
        host,
        port: url.port,
        path: req.path,
        method: req.method,
        headers,
        agent: false,
        ...(req.localAddress ? { localAddress: req.localAddress } : {}),
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers["content-encoding"];
          let decoded = raw;
          try {
            if (encoding === "br") decoded = brotliDecompressSync(raw);
            else if (encoding === "gzip") decoded = gunzipSync(raw);
          } catch {
            // Left as sent: a body that does not decode is reported as not JSON.
          }
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            text: decoded.toString("utf8"),
            headers: res.headers,
          });
        });
        res.on("error", reject);
      },
    );
    r.on("error", (error) => {
      if (!answered) reject(error);
    });
    // The server may close while the body is still going out (EPIPE); its answer is what counts.
    r.on("socket", (socket) => socket.on("error", () => {}));
    r.end(body);
  });
}

/**
 * A body sent in chunks without a Content-Length, through node:http, which reads the answer while it
 * is still writing (fetch gives up with a socket error when the server answers early and closes).
 */
export function sendChunked(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  chunk: string,
  times: number,
  cookie?: string,
): Promise<Reply> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        headers: { ...headers, ...(cookie ? { cookie } : {}), "transfer-encoding": "chunked" },
        agent: false,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text }),
        );
      },
    );
    let answered = false;
    req.on("response", () => {
      answered = true;
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.on("socket", (socket) => socket.on("error", () => {}));
    let sent = 0;
    const write = () => {
      while (sent < times) {
        sent++;
        if (!req.write(chunk)) {
          req.once("drain", write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

export type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Uint8Array };

/** A multipart/form-data body built by hand, so tests can also break it on purpose. */
export function multipart(parts: Part[], boundary = "----sdtBoundary7MA4YWxkTrZu0gW"): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ("filename" in part) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
        ),
      );
      chunks.push(Buffer.from(part.data));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}`));
    }
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  });
  await Promise.all(runners);
  return results;
}
