import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  // Ten files, one schema: the rounds, access, marketing, team, wallet, transfer, credit, payments and guest-choice tables live apart so no file grows past reading in one go.
  schema: [
    "./db/schema.ts",
    "./db/rounds-schema.ts",
    "./db/access-schema.ts",
    "./db/marketing-schema.ts",
    "./db/team-schema.ts",
    "./db/wallet-schema.ts",
    "./db/transfer-schema.ts",
    "./db/credit-schema.ts",
    "./db/payments-schema.ts",
    "./db/guest-choice-schema.ts",
  ],
  out: "./db/migrations",
});
