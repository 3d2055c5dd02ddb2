# toolgen — make targets. `make test` is the one test command (README, CI).
GO        ?= go
PKGS      := ./...
FUZZTIME  ?= 30s
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: all demo test test-race bench lint check fuzz fuzz-smoke generate tidy

all: check test

# The main job on the shipped descriptors: check, generate -check, list, call.
demo:
	$(GO) run ./cmd/toolgen check descriptors
	$(GO) run ./cmd/toolgen generate -dir descriptors -check
	$(GO) run ./cmd/toolgen list
	$(GO) run ./cmd/toolgen call search_text '{"pattern":"CommandToolBase","path":"runtime/base"}'

# Every test, race detector on, fuzz seed corpora included.
test:
	$(GO) test -race -count=1 $(PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)

# The CI gate besides tests: lint, tidy go.mod, generated code up to date.
check: lint
	$(GO) mod tidy -diff
	$(GO) run ./cmd/toolgen generate -dir descriptors -check

generate:
	$(GO) generate ./...

# Longer fuzzing by hand: every fuzz target for FUZZTIME each.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "== $$pkg $$f"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done
