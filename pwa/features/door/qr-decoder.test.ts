import QRCode from "qrcode";
import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { decodePixels, looksLikeUniqueCode, parseTicket, parseTypedTicket } from "./qr-decoder.ts";

// The decoder is driven with real QR images made by the `qrcode` package (the one that draws the
// tickets, api/booking/confirmation.ts), turned into RGBA pixels by sharp as a canvas would give them.
async function pixelsOf(image: Sharp) {
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

const ticketUrl = "https://tickets.example.com.au/confirm-booking?eventID=42&userID=1337";
const qrPng = (text: string, width = 300) => QRCode.toBuffer(text, { type: "png", width, margin: 4 });

describe("reading a ticket's QR code", () => {
  it("decodes a ticket as the confirmation draws it", async () => {
    const text = await decodePixels(await pixelsOf(sharp(await qrPng(ticketUrl))));
    expect(text).toBe(ticketUrl);
    expect(parseTicket(text!)).toEqual({ eventID: 42, userID: 1337 });
  });

  it("decodes it small, tilted and off-centre in a bigger camera-sized frame", async () => {
    const tilted = await sharp(await qrPng(ticketUrl, 220))
      .rotate(12, { background: "#ffffff" })
      .toBuffer();
    const frame = sharp({ create: { width: 640, height: 480, channels: 3, background: "#d8d4cc" } }).composite([
      { input: tilted, left: 300, top: 120 },
    ]);
    expect(await decodePixels(await pixelsOf(frame))).toBe(ticketUrl);
  });

  it("finds nothing in a frame without a code", async () => {
    const blank = sharp({ create: { width: 320, height: 240, channels: 3, background: "#808080" } });
    expect(await decodePixels(await pixelsOf(blank))).toBeNull();
  });
});

describe("what a scanned text names", () => {
  it.each([
    ["http://localhost:3000/confirm-booking?eventID=7&userID=9", { eventID: 7, userID: 9 }],
    ["  https://x.example/confirm-booking/?userID=9&eventID=7 ", { eventID: 7, userID: 9 }],
  ])("reads %s", (text, ticket) => {
    expect(parseTicket(text)).toEqual(ticket);
  });

  it.each([
    "hello",
    "ABCDEFGHJK",
    "https://x.example/tickets?eventID=7&userID=9",
    "https://x.example/confirm-booking?eventID=7",
    "https://x.example/confirm-booking?eventID=0&userID=9",
    "https://x.example/confirm-booking?eventID=7&userID=9x",
    "https://x.example/confirm-booking?eventID=-7&userID=9",
    "javascript:alert(1)//confirm-booking?eventID=7&userID=9",
  ])("refuses %s", (text) => {
    expect(parseTicket(text)).toBeNull();
  });
});

describe("a ticket link typed at the door", () => {
  it.each([
    "https://tickets.example.com.au/confirm-booking?eventID=42&userID=1337",
    "  https://tickets.example.com.au/confirm-booking?eventID=42&userID=1337\n",
    "tickets.example.com.au/confirm-booking?eventID=42&userID=1337",
    "localhost:5173/confirm-booking?eventID=42&userID=1337",
    "/confirm-booking?eventID=42&userID=1337",
    "eventID=42&userID=1337",
    "?userID=1337&eventID=42",
    // Pasted from a message that wrapped the link over two lines.
    "https://tickets.example.com.au/confirm-booking?eventID=42\n&userID=1337",
  ])("reads %j as the booking it names", (typed) => {
    expect(parseTypedTicket(typed)).toEqual({ eventID: 42, userID: 1337 });
  });

  it.each(["", "hello", "https://tickets.example.com.au/tickets?add=5&t=x", "eventID=42", "ABCDEFGH23"])(
    "finds no ticket in %j",
    (typed) => {
      expect(parseTypedTicket(typed)).toBeNull();
    },
  );

  it("tells a unique code apart from a link", () => {
    expect(looksLikeUniqueCode("ABCD EFGH 23")).toBe(true);
    expect(looksLikeUniqueCode("abcdefgh23")).toBe(true);
    expect(looksLikeUniqueCode("eventID=42&userID=1337")).toBe(false);
    expect(looksLikeUniqueCode("https://tickets.example.com.au/confirm-booking?eventID=42&userID=1337")).toBe(false);
  });
});
