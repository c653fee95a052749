# syntax=docker/dockerfile:1
#
# The production image: the same steps as a run on a plain server (docs/operations.md, "Deploying it"):
# `npm ci`, `npm run build`, then `npm run serve`'s command as a non-root user with every file the
# app writes under /data. e2e/production-start.test.ts reads this file's ENV, CMD and HEALTHCHECK and
# runs them without a container engine (none runs in CI), so keep them in the forms it parses:
# one `ENV NAME=value` per line and JSON-array CMD and HEALTHCHECK commands.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
# npm 11, as in development and CI: it runs only the install scripts package.json's allowScripts approves.
RUN npm install -g npm@11 --no-audit --no-fund

FROM base AS build
# better-sqlite3 and sharp download prebuilt binaries; these compile one when none fits the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM build AS production-deps
RUN npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY --from=production-deps /app/node_modules ./node_modules
# `npm run build` compiled the server, `npm run backup` and `npm run restore` to plain JavaScript in
# build/ (with the migrations beside them) and the PWA to dist/: no TypeScript and no loader here.
COPY --from=build /app/dist ./dist
COPY --from=build /app/build ./build
COPY package.json ./

# The app's files are root's and read-only to it; the database, uploads and backups live in /data.
RUN mkdir -p /data/uploads /data/backups && chown -R node:node /data
VOLUME ["/data"]

ENV NODE_ENV=production
ENV PORT=3000
ENV DATABASE_PATH=/data/app.db
ENV UPLOADS_DIR=/data/uploads
ENV BACKUP_DIR=/data/backups
# A production database starts empty: demo events would be on sale.
ENV SEED_DEMO=0

USER node
EXPOSE 3000
# slim has no curl: Node's own fetch asks /healthz (database answers, /data writable).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm run serve` runs, without npm in between, so SIGTERM reaches the server itself.
CMD ["node", "build/server.js"]
