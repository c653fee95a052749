import type { Readable } from "node:stream";

/**
 * Reads a multipart/form-data body in full, and hands the text fields that come before its first file
 * to `beforeFile` as soon as they have arrived, while the file's bytes are still on their way. A
 * details form sends its photo after the phone, gender and event (pwa/features/booking), so a sold-out
 * event can be refused before the photo is received or parsed (docs/decisions/007-scale.md). When
 * `beforeFile` throws, reading stops and the error is thrown: the server drains what is left of the
 * body after answering (@hono/node-server does), without parsing it.
 *
 * `beforeFile` is called at most once (with no fields when the file comes first), and not at all when
 * the body has no file or more than PREFIX_LIMIT bytes come before the file. The body returned is the
 * bytes as received: parsing it is left to the usual form parser.
 */
export async function readMultipart(
  request: Request,
  beforeFile: (fields: Record<string, string>, fileName: string) => void,
): Promise<ArrayBuffer> {
  const reader = request.body?.getReader();
  if (!reader) return new ArrayBuffer(0);
  const body = collector(request.headers.get("content-type") ?? "", beforeFile);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return body.whole();
    body.add(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
}

/**
 * readMultipart straight from Node's request stream, for a body whose length the headers declare
 * (api/app.ts checks it against the limit). It builds no web Request or stream around the body: in an
 * on-sale rush most forms are refused after their first bytes, and this is most of what a refusal
 * costs. When `beforeFile` throws, the stream is left paused with the rest unread, for the server to
 * drain after the answer (@hono/node-server does). A body cut off before its end is an error.
 */
export function readMultipartFrom(
  incoming: Readable,
  contentType: string,
  beforeFile: (fields: Record<string, string>, fileName: string) => void,
): Promise<ArrayBuffer> {
  const body = collector(contentType, beforeFile);
  return new Promise((resolve, reject) => {
    const stop = () => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      try {
        body.add(chunk);
      } catch (error) {
        stop();
        incoming.pause();
        reject(error);
      }
    };
    const onEnd = () => {
      stop();
      resolve(body.whole());
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => onError(new Error("the upload was cut off"));
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
  });
}

/** Collects a multipart body's chunks and calls `beforeFile` once the fields before its first file are in. */
function collector(contentType: string, beforeFile: (fields: Record<string, string>, fileName: string) => void) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const delimiter = boundary ? Buffer.from(`--${(boundary[1] ?? boundary[2] ?? "").trim()}`) : undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  let decided = delimiter === undefined;
  return {
    add(chunk: Buffer) {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (decided || !delimiter) return;
      const head =
        chunks.length === 1 ? chunk.subarray(0, PREFIX_LIMIT) : Buffer.concat(chunks, Math.min(size, PREFIX_LIMIT));
      const prefix = fieldsBeforeFile(head, delimiter);
      if (prefix || size >= PREFIX_LIMIT) {
        decided = true;
        if (prefix?.fileName !== undefined) beforeFile(prefix.fields, prefix.fileName);
      }
    },
    whole(): ArrayBuffer {
      const body = Buffer.concat(chunks, size);
      return body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
    },
  };
}

/** The text fields of a form fit in far less; a body that sends more before its file is read as usual. */
const PREFIX_LIMIT = 64 * 1024;

const CRLF = Buffer.from("\r\n");
const HEADERS_END = Buffer.from("\r\n\r\n");

/**
 * The text fields before the first file part of `head` (the body's first bytes), or undefined while
 * more bytes are needed to know, with the file's name (undefined when the body ended without a file).
 */
function fieldsBeforeFile(
  head: Buffer,
  delimiter: Buffer,
): { fields: Record<string, string>; fileName?: string } | undefined {
  const fields: Record<string, string> = {};
  let at = head.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    at += delimiter.length;
    if (head.length < at + 2) return undefined;
    // `--` after a delimiter closes the body.
    if (head[at] === 0x2d && head[at + 1] === 0x2d) return { fields };
    const headersEnd = head.indexOf(HEADERS_END, at);
    if (headersEnd < 0) return undefined;
    const headers = head.subarray(at, headersEnd).toString("latin1");
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? "";
    const fileName = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1];
    if (fileName !== undefined || /;\s*filename\*?=/i.test(disposition)) return { fields, fileName: fileName ?? "" };
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    const valueStart = headersEnd + HEADERS_END.length;
    const next = head.indexOf(Buffer.concat([CRLF, delimiter]), valueStart);
    if (next < 0) return undefined;
    if (name !== undefined) fields[name] = head.subarray(valueStart, next).toString("utf8");
    at = next + CRLF.length;
  }
}
