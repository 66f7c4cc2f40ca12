# rogued: build stage with the -dev packages, slim runtime stage with only the
# shared libraries, run as a non-root user on port 2323 with /data as a volume.
#
#   docker build -t rogued .
#   docker run -p 2323:2323 -v rogued-data:/data rogued
#
# The package lists mirror the Makefile's RUN_PKGS (build) and their runtime
# libraries (run).
FROM debian:bookworm-slim AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      gcc make pkg-config libc6-dev \
      libuv1-dev libtelnet-dev libsqlite3-dev libsodium-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Makefile ./
COPY common ./common
COPY server ./server
COPY tests/install-deps.sh ./tests/install-deps.sh
RUN make build/rel/rogued

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libuv1 libtelnet2 libsqlite3-0 libsodium23 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home-dir /data --shell /usr/sbin/nologin rogue \
 && mkdir -p /data /etc/rogued && chown rogue:rogue /data
COPY --from=build /src/build/rel/rogued /usr/local/bin/rogued
COPY config/server.conf /etc/rogued/server.conf
USER rogue
VOLUME /data
EXPOSE 2323
ENV ROGUED_DATA_DIR=/data ROGUED_PORT=2323 ROGUED_BIND=0.0.0.0
ENTRYPOINT ["/usr/local/bin/rogued", "--config", "/etc/rogued/server.conf"]
