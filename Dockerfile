# toolgen serve in a container: a static binary on a small Debian image with
# the programs the built-in tools run (grep, find, sed) and git, as a
# non-root user, with a tools directory baked in. The default command serves
# MCP Streamable HTTP on :8080, stateless (any number of replicas behind any
# load balancer); it needs a bearer token (TOOLGEN_TOKEN or --token-file), or
# it exits with status 2.
#
#   docker build -t toolgen .                           # the tools of descriptors/
#   docker build --build-arg TOOLS=my-tools -t toolgen .  # yours: a directory of the build context
#   docker run --rm -p 8080:8080 -e TOOLGEN_TOKEN="$(openssl rand -hex 32)" \
#     -v "$PWD:/workspace:ro" toolgen
#
# The tools directory /etc/toolgen/tools is COPY'd (owned by root) and made
# read-only to everyone else, so toolgen trusts it as it is: a directory owned
# by root and writable by no one else needs no toolgen trust. The workspace
# is the mounted volume, owned by whoever owns it on the host; git tools work
# there (safe.directory is set for the workspace only).
#
# See docs/serve.md, "Serving over HTTP", for a two-replica example.

# TOOLS is the directory of *.tool.json descriptors, in the build context,
# that the image serves.
ARG TOOLS=descriptors

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO_ENABLED=0: a static binary (no libc), which also keeps the server's
# resident memory lower (the cgo build maps and touches libc and more of
# the binary).
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/toolgen ./cmd/toolgen \
 && /out/toolgen version

FROM debian:bookworm-slim
ARG TOOLS
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 10001 --user-group --create-home --shell /usr/sbin/nologin toolgen \
 && mkdir -p /workspace /audit \
 && chown toolgen:toolgen /audit
COPY --from=build /out/toolgen /usr/local/bin/toolgen
COPY ${TOOLS}/*.tool.json /etc/toolgen/tools/
# Root-owned, and writable by no one else whatever modes the build context
# had (a checkout under umask 002 makes group-writable files).
RUN chown -R root:root /etc/toolgen/tools && chmod 0755 /etc/toolgen/tools && chmod 0644 /etc/toolgen/tools/*.tool.json
USER 10001:10001
WORKDIR /workspace
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["toolgen", "serve", "--tools", "/etc/toolgen/tools", "--workspace", "/workspace", "--http", "0.0.0.0:8080"]
CMD ["--stateless"]
