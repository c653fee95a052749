import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import busboy from "busboy";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";

/**
 * Called once, as soon as the first file part of a form begins: with the text fields before it
 * (the last of a repeated name) and the file's name ("" for the empty file a browser sends when none
 * was chosen). What it throws stops the reading, and the read fails with it.
 */
export type BeforeFile = (fields: Record<string, string>, fileName: string) => void;

/**
 * Reads a multipart/form-data body once, as it arrives, with busboy: the text fields as strings,
 * each file as a File, in the body's order. A details form sends its photo after the phone, gender
 * and event (pwa/features/booking), so `beforeFile` gets those fields while the photo is still on its
 * way, and a sold-out event is refused before the photo is received (docs/decisions/007-scale.md).
 *
 * From Node's request stream (`IncomingMessage`), a read that stops early (`beforeFile` refused, the
 * form is broken) leaves the rest unread and paused, for the server to drain after the answer
 * (@hono/node-server does); a web stream is cancelled. A body cut off before its closing boundary,
 * one with no boundary, a part without a name or a broken part header fails the read.
 */
export function readMultipart(
  body: Readable | ReadableStream<Uint8Array> | null,
  contentType: string,
  beforeFile?: BeforeFile,
): Promise<FormData> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let stopSource = () => {};
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      stopSource();
      // The parser is fed nothing more and left to the collector: destroying it would make two
      // errors and tear down its streams, most of what a refused form costs.
      reject(error instanceof Error ? error : new Error(String(error)));
    };

    let parser: busboy.Busboy | undefined;
    try {
      // The platform's own parser refuses an empty boundary; busboy would search for "--" alone.
      if (!/;\s*boundary=(?:"[^"]+"|[^";\s]+)/i.test(contentType)) throw new Error("no boundary");
      parser = busboy({
        headers: { "content-type": contentType },
        // File names as browsers send them (UTF-8); a field's size is bounded by the body's limit
        // (api/app.ts), never cut short here.
        defParamCharset: "utf8",
        // Backpressure only when the parser is truly behind, not after every chunk the socket gives.
        highWaterMark: 1024 * 1024,
        limits: { fieldSize: Number.POSITIVE_INFINITY },
      });
    } catch (error) {
      fail(error);
      return;
    }

    // Each entry in the body's order; a file's value is filled in when its last byte is in.
    const entries: [string, string | File | undefined][] = [];
    const before: Record<string, string> = Object.create(null);
    let fileSeen = false;
    const firstFile = (fileName: string) => {
      if (fileSeen) return;
      fileSeen = true;
      try {
        beforeFile?.(before, fileName);
      } catch (error) {
        fail(error);
      }
    };
    parser.on("field", (name, value, info) => {
      if (settled) return;
      if (!name) return fail(new Error("a part without a name"));
      // busboy drops an empty `filename=""`, which a file input sends when no file was chosen: a
      // part with a type of its own (not text) is read as that file, named "", as the platform does.
      if (info.mimeType !== "text/plain") {
        entries.push([name, new File([value], "", { type: info.mimeType })]);
        return firstFile("");
      }
      entries.push([name, value]);
      if (!fileSeen) before[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      stream.on("error", fail);
      if (settled || !name) {
        stream.resume();
        return fail(new Error("a part without a name"));
      }
      const entry: [string, string | File | undefined] = [name, undefined];
      entries.push(entry);
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      // Without a name when its filename was empty (typed application/octet-stream, as browsers send it).
      const fileName = info.filename ?? "";
      stream.on("end", () => {
        // Buffers are what File takes; the cast is for the DOM's typing of it (the tests' program).
        entry[1] = new File(chunks as unknown as FileParts, fileName, { type: info.mimeType });
      });
      firstFile(fileName);
    });
    parser.on("error", fail);
    parser.on("finish", () => {
      if (settled) return;
      settled = true;
      const form = new FormData();
      for (const [name, value] of entries) if (value !== undefined) form.append(name, value);
      resolve(form);
    });

    const into = parser;
    if (body === null) into.end();
    else if (body instanceof ReadableStream) stopSource = fromWebStream(body, into, fail);
    else stopSource = fromNodeStream(body, into, fail);
  });
}

type FileParts = ConstructorParameters<typeof File>[0];

/**
 * Writes a chunk in slices, stopping between them once the read has stopped: a socket's chunk is up
 * to 64 KiB, nearly all photo after the fields, and a form refused at its first file (a sold-out
 * rush's every loser) then costs the parser only the first slice's bytes. False when the parser
 * asks the source to wait (its buffer is full).
 */
function feed(parser: busboy.Busboy, chunk: Buffer, stopped: () => boolean): boolean {
  let ready = true;
  for (let at = 0; at < chunk.length && !stopped(); at += SLICE) ready = parser.write(chunk.subarray(at, at + SLICE));
  return ready;
}
const SLICE = 8 * 1024;

/** Feeds Node's stream into the parser, pausing while it is busy; returns how to stop reading. */
function fromNodeStream(incoming: Readable, parser: busboy.Busboy, fail: (error: unknown) => void) {
  let stopped = false;
  const onData = (chunk: Buffer) => {
    if (feed(parser, chunk, () => stopped) || stopped) return;
    incoming.pause();
    parser.once("drain", () => {
      if (!stopped) incoming.resume();
    });
  };
  const onEnd = () => {
    stop();
    parser.end();
  };
  const onError = (error: Error) => fail(error);
  const onClose = () => fail(new Error("the upload was cut off"));
  const stop = () => {
    stopped = true;
    incoming.off("data", onData);
    incoming.off("end", onEnd);
    incoming.off("error", onError);
    incoming.off("close", onClose);
    incoming.pause();
  };
  // A body someone else read (or a connection already gone) would never end here.
  if (incoming.readableEnded || incoming.destroyed) {
    queueMicrotask(() => fail(new Error("the body was read already")));
    return () => {};
  }
  incoming.on("data", onData);
  incoming.on("end", onEnd);
  incoming.on("error", onError);
  incoming.on("close", onClose);
  return stop;
}

/** Feeds a web stream into the parser, one chunk at a time; returns how to stop reading. */
function fromWebStream(body: ReadableStream<Uint8Array>, parser: busboy.Busboy, fail: (error: unknown) => void) {
  const reader = body.getReader();
  let stopped = false;
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        parser.off("drain", done).off("close", done);
        resolve();
      };
      parser.on("drain", done).on("close", done);
    });
  (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (stopped) return;
      if (done) return void parser.end();
      if (!feed(parser, Buffer.from(value.buffer, value.byteOffset, value.byteLength), () => stopped)) await drained();
    }
  })().catch(fail);
  return () => {
    stopped = true;
    reader.cancel().catch(() => {});
  };
}

/** Whether a request's body is a multipart form (the type's case does not matter). */
export const isMultipart = (c: Context) => /^multipart\/form-data/i.test(c.req.header("content-type") ?? "");

/**
 * Reads a request's multipart form once (readMultipart), and keeps it where Hono's `parseBody()` and
 * the route's form validator look first, so neither parses the body again. A body whose length the
 * headers declare (api/app.ts checked it against the limit) is read from Node's own stream, without
 * building a web Request around it: in an on-sale rush most forms are refused after their first bytes,
 * and that is most of what a refusal costs. Any other body comes from the request, which the body
 * limit has already counted.
 */
export async function readRequestForm(c: Context, beforeFile?: BeforeFile): Promise<FormData> {
  const type = c.req.header("content-type") ?? "";
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const declared = c.req.header("content-length") !== undefined && c.req.header("transfer-encoding") === undefined;
  const form = await readMultipart(incoming && declared ? incoming : c.req.raw.body, type, beforeFile);
  // Hono keeps a promise here (its type names the value), and awaits it.
  c.req.bodyCache.formData = Promise.resolve(form) as unknown as FormData;
  return form;
}

/**
 * A route's middleware, before its form validator: a multipart body is read once (readRequestForm),
 * and one that cannot be read gets the validator's own 400. Any other body is left to the validator.
 */
export const readFormOnce: MiddlewareHandler = async (c, next) => {
  if (isMultipart(c)) {
    try {
      await readRequestForm(c);
    } catch {
      throw new HTTPException(400, { message: "Malformed FormData request. Failed to parse body as FormData." });
    }
  }
  await next();
};
