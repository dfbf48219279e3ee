# syntax=docker/dockerfile:1
# Marquee: docker build -t marquee .   (docs/operations.md; compose.yaml runs it behind nginx)
#
# build    npm ci + npm run build, then scripts/prod-tree.mjs assembles the production tree
# deps     production dependencies only (npm ci --omit=dev); better-sqlite3 needs a compiler when no
#          prebuilt binary fits, and this image has python3, make and g++
# runtime  node slim + the deps' node_modules + the production tree; no sources, no build tools
#
# All three use the same Node and Debian release, so the compiled better-sqlite3 matches the runtime:
# Node 22, the maintained LTS line (the code also runs on Node 20.19+, as the README says).
ARG NODE_IMAGE=node:22-bookworm
ARG NODE_RUNTIME_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# Manifests first: the npm ci layer is reused until a dependency changes.
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/providers/package.json packages/providers/
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build && node scripts/prod-tree.mjs /prod --no-install

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/providers/package.json packages/providers/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund

FROM ${NODE_RUNTIME_IMAGE} AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=8080 \
    HOST=0.0.0.0
WORKDIR /app
# Owned by root, read-only for the server's user; only /data is writable.
COPY --from=deps /app/ ./
COPY --from=build /prod/ ./
# ffmpeg/ffprobe read every library file and convert what a browser cannot play (docs/decisions/085);
# fpcalc (libchromaprint-tools) finds intros and credits (docs/decisions/111).
RUN apt-get update \
    && apt-get install -y --no-install-recommends ffmpeg libchromaprint-tools \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# The slim image has no curl: Node's fetch asks /healthz (liveness: 200 while the process serves;
# /readyz says whether the database and Redis answer).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# --no-concurrent-recompilation: about 8 MiB less resident memory (decision 090).
CMD ["node", "--no-concurrent-recompilation", "apps/server/dist/main.js"]
