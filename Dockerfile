# Playport in a container (docs/operations.md, decision 076). Builds with the npm registry and
# Debian's packages only: Node.js 24 itself comes from the `node` npm package the project pins.

FROM debian:trixie-slim AS build
# Debian's Node.js runs npm; every npm script then runs on the pinned Node 24 from node_modules.
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs npm ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
# The build, then only what runs: the server's TypeScript runs as it is (type stripping).
RUN npm run build \
 && cp node_modules/node/bin/node /usr/local/bin/node \
 && npm prune --omit=dev --no-audit --no-fund

FROM debian:trixie-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /app playport
COPY --from=build /usr/local/bin/node /usr/local/bin/node
COPY --from=build --chown=root:root /app /app
WORKDIR /app
RUN mkdir -p /app/data/uploads && chown -R playport /app/data
USER playport
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 APP_ENV=production
EXPOSE 3000 3001
VOLUME ["/app/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Migrations: run `node scripts/migrate.ts` once per release; instances also migrate at start, one at a time.
CMD ["node", "server/main.ts"]
