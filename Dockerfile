# For those with a container engine (production mode needs its two secrets; docs/production.md):
#   docker build -t task-service .
#   docker run -p 3000:3000 -e JWT_SECRET=$(openssl rand -hex 32) -e CONNECTOR_SECRET_KEY=$(openssl rand -hex 32) task-service
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY sdk/package.json sdk/
COPY cli/package.json cli/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/openapi ./openapi
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Production needs JWT_SECRET (32+ characters) and CONNECTOR_SECRET_KEY (32 bytes, hex or base64).
CMD ["node", "dist/src/main.js"]
