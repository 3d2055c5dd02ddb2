# toolgen — make targets. `make test` is the one test command (README, CI).
GO        ?= go
PKGS      := ./...
FUZZTIME  ?= 30s
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
# The SDK adapters are modules of their own (an agent that imports none gets
# no SDK); test, lint and check run in each of them too. adapters/temporaltool
# tests against a real Temporal server it links in (go.temporal.io/server):
# its first build takes minutes (CI builds it before make test, timed); the
# real-server suite skips under -short and runs in test-all.
ADAPTERS  := adapters/openaitool adapters/anthropictool adapters/temporaltool
IN_ADAPTERS = for m in $(ADAPTERS); do (cd $$m && $(1)) || exit 1; done

.PHONY: all build demo test test-all test-user fuzz-smoke bench lint check cross fuzz generate

all: check test

# A static binary (CGO_ENABLED=0, as the Dockerfile builds it): no libc to
# map and touch, so a server and its spawner process hold ~2 MiB less
# resident memory (docs/performance.md); nothing in toolgen needs cgo.
build:
	CGO_ENABLED=0 $(GO) build -o bin/toolgen ./cmd/toolgen

# The main job on the repository's own descriptors/: check them with the
# validator, prove the committed generated Go is what they compile to, list
# the tools, explain a call, and call a tool for real. toolgen serves only the
# built-ins and the tools it is given, so every command names --tools
# descriptors; that directory is inside the workspace (.), which toolgen
# refuses without --allow-tools-in-workspace.
DEMO_TOOLS := --tools descriptors --allow-tools-in-workspace
demo: build
	@echo '== toolgen check descriptors'
	bin/toolgen check descriptors
	@echo '== toolgen generate --tools descriptors -check   (silent: descriptors/tools_gen.go is up to date)'
	bin/toolgen generate --tools descriptors -check
	@echo '== toolgen list $(DEMO_TOOLS)'
	bin/toolgen list $(DEMO_TOOLS)
	@echo '== toolgen explain $(DEMO_TOOLS) search_text (dry run)'
	bin/toolgen explain $(DEMO_TOOLS) search_text '{"pattern":"CommandToolBase","path":"runtime/builtin"}'
	@echo '== toolgen call $(DEMO_TOOLS) search_text'
	bin/toolgen call $(DEMO_TOOLS) search_text '{"pattern":"CommandToolBase","path":"runtime/builtin"}'
	@echo '== toolgen call search_text with a value the validator rejects (exit 4)'
	bin/toolgen call $(DEMO_TOOLS) search_text '{"pattern":"x;rm -rf /"}' || test $$? -eq 4

# The README's test command: every package with the race detector, fuzz seed
# corpora included; suites that take more than a few seconds (end-to-end runs
# of the binary, large attack corpora) skip under -short and run in test-all.
# Under 4 minutes on a 2-core machine. The adapter modules (adapters/*,
# each its own module so that only their users build the SDKs) run without
# the race detector: they start no goroutine, and the race build of the
# OpenAI SDK alone takes minutes.
test:
	$(GO) test -race -short -count=1 $(PKGS)
	@$(call IN_ADAPTERS,$(GO) test -short -count=1 ./...)

# The attack suites as an ordinary user (the normal deployment): as root,
# .ci/unprivileged makes the user toolgen-ci and runs them as it. CI runs it.
test-user:
	bash .ci/unprivileged

# Everything: the full suites (no -short), then every fuzz target briefly.
# CI runs it after make test.
test-all:
	$(GO) test -race -count=1 -timeout 20m $(PKGS)
	@$(call IN_ADAPTERS,$(GO) test -count=1 -timeout 15m ./...)
	$(MAKE) fuzz-smoke

# Every fuzz target for FUZZSMOKE each, so a parser or oracle bug cannot sit
# unseen between the longer runs by hand (make fuzz).
FUZZSMOKE ?= 5s
fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZTIME=$(FUZZSMOKE)

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)
	@$(call IN_ADAPTERS,$(GO) vet ./... && $(GO) run $(STATICCHECK) ./...)

# Builds wherever Go does: every package (generated code included) builds
# for Windows and macOS, where the kernel runs unconfined (explain says what
# holds there), and every package a user imports (all but the commands,
# whose CLI tests drive Linux process attacks) vets there, tests included.
CROSS_GOOS := windows darwin
cross:
	@for goos in $(CROSS_GOOS); do \
		echo "== GOOS=$$goos go build ./... && go vet (library packages)"; \
		GOOS=$$goos $(GO) build $(PKGS) || exit 1; \
		GOOS=$$goos $(GO) vet $$($(GO) list $(PKGS) | grep -v '/cmd/') || exit 1; \
	done

# The CI gate besides tests: lint, the cross builds, tidy go.mod, generated
# code up to date.
check: lint cross
	$(GO) mod tidy -diff
	@$(call IN_ADAPTERS,$(GO) mod tidy -diff)
	$(GO) run ./cmd/toolgen generate --tools descriptors -check
	$(GO) run ./cmd/toolgen generate --tools examples/agent/tools -check
	$(GO) run ./cmd/toolgen generate --tools examples/build-tools -check

generate:
	$(GO) generate ./...

# Longer fuzzing by hand: every fuzz target for FUZZTIME each (PKGS=./x/...
# for some). A run that fails only because the fuzz engine timed out a
# worker as the time ran out ("context deadline exceeded", no failing input
# written; one target in ten to twenty on a 2-core machine, loaded or not)
# is tried up to four times more; a failing input always fails.
fuzz:
	@for pkg in $$($(GO) list $(PKGS)); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "== $$pkg $$f"; \
			for try in 1 2 3 4 5; do \
				out=$$($(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg 2>&1); rc=$$?; \
				echo "$$out"; \
				[ $$rc -eq 0 ] && break; \
				if [ $$try -lt 5 ] && echo "$$out" | grep -q 'context deadline exceeded' && \
					! echo "$$out" | grep -q 'Failing input written'; then \
					echo "(the fuzz engine timed out a worker and found nothing: once more)"; continue; \
				fi; \
				exit 1; \
			done; \
		done; \
	done
