# syntax=docker/dockerfile:1
# The service's image: built with every dependency, run with node alone on the compiled bundle and
# the production dependencies (PGlite, Swagger UI, GraphiQL's page), as a non-root user.
# scripts/check-production-path.sh runs the same steps outside a container in CI.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# No dependency's install script runs (whichever npm the image bundles, and whether it honours
# package.json's allowScripts): none is needed, Prisma's engine download least of all. The one step
# an install script would do, generating the Prisma client (WebAssembly, no download), is explicit.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
RUN npm ci --ignore-scripts --no-audit --no-fund
RUN npm run generate
COPY tsconfig.json ./
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
USER node
EXPOSE 4000
# Liveness: the process answers. Not /readyz, which also fails while Redis is unreachable: the
# replica still serves then (limits in its own memory), and marking it unhealthy, or restarting it,
# would not bring Redis back.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and receives SIGTERM itself: the server finishes in-flight requests, then exits.
CMD ["node", "dist/server.js"]
