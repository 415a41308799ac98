# bazaar-server as a container image: built with the Swift toolchain's image, run on a slim Debian
# with only the runtime libraries, as an unprivileged user. scripts/container-check.sh runs these
# build and run steps on a Debian machine in CI (no container engine there), so they cannot rot.
#
#   docker build -t bazaar-server .
#   docker run -p 8080:8080 -v bazaar:/var/lib/bazaar bazaar-server            # SQLite in the volume
#   docker compose up                                                         # two replicas, PostgreSQL, nginx

# ---- build --------------------------------------------------------------------------------------
FROM swift:6.3-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libvips-dev libsqlite3-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# Package.swift first, so the dependencies' layer is reused while only the sources change.
COPY Package.swift ./
RUN swift package resolve
COPY . .
RUN swift build -c release --product bazaar-server --static-swift-stdlib \
    && mkdir -p /staging && cp "$(swift build -c release --show-bin-path)/bazaar-server" /staging/

# ---- run ----------------------------------------------------------------------------------------
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libvips42 libsqlite3-0 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 10001 --home-dir /var/lib/bazaar --create-home --shell /usr/sbin/nologin bazaar
COPY --from=build /staging/bazaar-server /usr/local/bin/bazaar-server
USER bazaar
WORKDIR /var/lib/bazaar
# Every option can come from BAZAAR_<OPTION> (README: bazaar-server); these make a container's defaults.
ENV BAZAAR_HOST=0.0.0.0 BAZAAR_PORT=8080 BAZAAR_SQLITE=/var/lib/bazaar/bazaar.sqlite BAZAAR_LOG_FORMAT=json BAZAAR_DRAIN_DELAY=5
EXPOSE 8080
VOLUME ["/var/lib/bazaar"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s CMD curl -fsS http://127.0.0.1:8080/health/live || exit 1
ENTRYPOINT ["bazaar-server"]
