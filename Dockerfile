# rogued: build stage with the -dev packages, slim runtime stage with only the
# shared libraries, run as a non-root user on port 2323 with /data as a volume.
#
#   docker build -t rogued .
#   docker run -p 2323:2323 -p 8023:8023 -v rogued-data:/data rogued
#
# The user is rogue, uid 2323 and gid 2323 whatever the base image: a host
# directory mounted on /data must be writable by that uid, or the server
# refuses to start (docs/hosting.md):
#   mkdir -p /srv/rogued && chown 2323:2323 /srv/rogued
#   docker run -p 2323:2323 -v /srv/rogued:/data rogued
#
# The package lists mirror the Makefile's RUN_PKGS (build) and their runtime
# libraries (run). BASE is only for `make image-check`, which builds from a
# debian:bookworm-slim of its own making (tests/image/image-check.sh).
ARG BASE=debian:bookworm-slim
FROM ${BASE} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      gcc make pkg-config libc6-dev \
      libuv1-dev libtelnet-dev libsqlite3-dev libsodium-dev \
      libwslay-dev libhttp-parser-dev nettle-dev libpq-dev curl ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Makefile ./
COPY common ./common
COPY server ./server
COPY web ./web
COPY tests/install-deps.sh ./tests/install-deps.sh
RUN make build/rel/rogued

FROM ${BASE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libuv1 libtelnet2 libsqlite3-0 libsodium23 \
      libwslay1 libhttp-parser2.9 libnettle8 libpq5 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 2323 rogue \
 && useradd --system --uid 2323 --gid 2323 --home-dir /data \
      --shell /usr/sbin/nologin rogue \
 && mkdir -p /data /etc/rogued && chown 2323:2323 /data
COPY --from=build /src/build/rel/rogued /usr/local/bin/rogued
COPY config/server.conf /etc/rogued/server.conf
USER rogue
VOLUME /data
# 2323: telnet; 8023: the browser page (http_port)
EXPOSE 2323 8023
ENV ROGUED_DATA_DIR=/data ROGUED_PORT=2323 ROGUED_BIND=0.0.0.0
# Healthy when the server answers a connection: it sends its telnet
# negotiation at once, so reading 3 bytes proves the loop is serving, not
# only that the port is open. Each check is one connect and disconnect line
# in the log, once a minute. (bash's /dev/tcp: the slim image has no nc.)
HEALTHCHECK --interval=60s --timeout=10s --start-period=10s --retries=3 \
    CMD ["timeout", "5", "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${ROGUED_PORT:-2323} && head -c 3 <&3 >/dev/null"]
ENTRYPOINT ["/usr/local/bin/rogued", "--config", "/etc/rogued/server.conf"]
