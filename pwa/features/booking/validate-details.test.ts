import { describe, expect, it } from "vitest";
import { validateDetails } from "./validate-details.ts";

const photo = (size: number, type = "image/jpeg") => new File([new Uint8Array(size)], "me.jpg", { type });
const complete = { name: "Priya", email: "priya@example.com", gender: "female" as const, photo: photo(1000) };

describe("validateDetails", () => {
  it("passes a complete form", () => {
    expect(validateDetails(complete)).toBeNull();
  });

  it.each([{ name: "  " }, { email: "" }, { gender: "" as const }])("asks for every field when %o", (change) => {
    expect(validateDetails({ ...complete, ...change })).toBe("All fields are required.");
  });

  it("asks for the photo after the fields", () => {
    expect(validateDetails({ ...complete, photo: null })).toBe("Image upload is required.");
    expect(validateDetails({ ...complete, name: "", photo: null })).toBe("All fields are required.");
  });

  it("refuses files that are not JPEG, PNG or WebP", () => {
    expect(validateDetails({ ...complete, photo: photo(10, "application/pdf") })).toBe(
      "Please choose an image file (JPEG, PNG or WebP).",
    );
    expect(validateDetails({ ...complete, photo: photo(10, "image/png") })).toBeNull();
    expect(validateDetails({ ...complete, photo: photo(10, "image/webp") })).toBeNull();
  });

  it("refuses photos of 5 MB or more", () => {
    expect(validateDetails({ ...complete, photo: photo(5 * 1024 * 1024) })).toBe("Image should be less than 5 MB.");
    expect(validateDetails({ ...complete, photo: photo(5 * 1024 * 1024 - 1) })).toBeNull();
  });
});
