# syntax=docker/dockerfile:1
# The service's image: built with every dependency, run with production dependencies and the
# compiled output only, as a non-root user. scripts/check-production-path.sh runs the same steps
# outside a container in CI.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# The install's postinstall generates the Prisma client from the schema (WebAssembly, no download).
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
USER node
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and receives SIGTERM itself: the server finishes in-flight requests, then exits.
CMD ["node", "dist/server.js"]
