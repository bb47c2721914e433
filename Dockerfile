# The RIS server image: the built apps with their production dependencies on Node 24 (Debian 12).
# Nothing deployment-specific is baked in: configuration comes from the environment and secrets from
# files (X_FILE, see .env.example). compose.yaml runs it; README.md "Containers" says how.
#
#   docker build -t ris .
#   docker run -p 8080:8080 -v ris-data:/data ris        # alone: embedded PGlite database in /data

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
# `npm ci` installs everything and, through the root `prepare`, builds domain, editor, the server
# (with the OHIF viewer that scripts/fetch-ohif.mjs fetches through npm and checks against its pinned
# integrity; RIS_REQUIRE_OHIF=1 makes a failed download fail the build) and the web app. The staging
# script then writes the production install (CI starts the same one: scripts/check-production-install.mjs).
ENV RIS_REQUIRE_OHIF=1
RUN npm ci --no-audit --no-fund && node scripts/stage-production.mjs /stage

FROM node:24-bookworm-slim
# The offline dictation engine (CMU PocketSphinx, its US English model) and espeak-ng, which
# pronounces the words of an organisation's language model that the dictionary lacks.
RUN apt-get update \
  && apt-get install -y --no-install-recommends libpocketsphinx3 pocketsphinx-en-us espeak-ng \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Same path as the build stage, so the compile cache made by the build (apps/server/dist/.compile-cache)
# matches. Files stay owned by root: the server cannot change its own code.
COPY --from=build /stage /app
RUN mkdir /data && chown node:node /data
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
# The embedded database (without DATABASE_URL), stored files (without S3_*), generated secrets.
VOLUME /data
USER node
EXPOSE 8080
# Node's own fetch: the slim image has no curl. /readyz answers 200 once the database is reachable.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/server/dist/main.js"]
