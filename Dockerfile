# syntax=docker/dockerfile:1
# Steward's container image: the on-prem runtime (`steward start`) as a non-root user, with the
# container health check as its HEALTHCHECK. Mount the configuration at /app/config/steward.yaml
# (it must set containerHealthCheck.enable: true, and listen on 0.0.0.0 where the ports are
# published: there the REST API needs apiToken, given as ${STEWARD_REST_TOKEN} and passed with
# `docker run -e STEWARD_REST_TOKEN`, or allowUnauthenticated: true, and each listener the names
# clients use in allowedHosts; docs/running-on-prem.md, Containers) and keep /app/data on a volume
# (stores, scramble key, instance id).
# Both stages run Node 24, the primary line of the supported ones (package.json engines).
# test/integration/docker/dockerfile.test.ts checks this file and runs its HEALTHCHECK command.

# ---- build: the bundle of `npm run build` (dist/main.mjs) ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- runtime: production dependencies and the bundle only ----
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# The entry and the chunks it loads on demand (bin/bundle.mjs).
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/data /app/config && chown node:node /app/data
USER node
# Ingest API, REST API, container health check (loopback only, for the HEALTHCHECK below).
EXPOSE 8181 8081 12398
VOLUME ["/app/data"]
HEALTHCHECK --interval=12s --timeout=12s --start-period=30s --retries=3 \
  CMD ["node", "dist/main.mjs", "healthcheck", "--config", "/app/config/steward.yaml"]
# Node with Steward's options (bin/node-flags.mjs).
ENTRYPOINT ["node", "--max-semi-space-size=8", "--max-old-space-size=1024", "dist/main.mjs"]
CMD ["start", "--config", "/app/config/steward.yaml"]
