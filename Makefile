# SQE build, run and test entry points. `make run` and `make test` do all
# set-up on a fresh Debian machine (as root): missing tools are installed
# with apt-get.

GO      ?= go
BIN     := bin/sqe
# CGO is required: pg_query_go compiles PostgreSQL's parser.
export CGO_ENABLED := 1

.PHONY: all build run test test-deps build-deps bench bench-deps soak soak-maintenance lint fuzz clean

all: build

build-deps:
	@command -v $(GO) >/dev/null || { echo "Go 1.25 or newer is required (https://go.dev/dl)"; exit 1; }
	@command -v gcc >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gcc libc6-dev; }

build: build-deps
	$(GO) build -o $(BIN) ./cmd/sqe

# Builds and starts the server on the embedded default with the demo data.
run: build
	./$(BIN) serve --demo

# Tools the tests drive: real clients (psql, node-postgres through node
# and npm, psycopg2 and SQLAlchemy under Debian's own python3, pgjdbc
# with a JDK),
# PostgreSQL's server binaries (the reference the wire scripts and
# differential tests compare with), shellcheck, curl and wget (the docker
# quickstart's setup scripts, which its tests run), chromium (the access
# page's test drives it headless). The npm package itself is installed
# by its test with `npm ci` from compat-tests/node/package-lock.json. Ory Hydra,
# the OpenID provider of the OIDC tests, needs nothing here: those tests build it
# with go from its own module (compat-tests/tools/hydra, outside ./...) into the
# user's cache directory, once per version.
test-deps: build-deps
	@missing=""; \
	command -v psql >/dev/null || missing="$$missing postgresql-client"; \
	ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v node >/dev/null || missing="$$missing nodejs"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	/usr/bin/python3 -c 'import psycopg2' 2>/dev/null || missing="$$missing python3-psycopg2"; \
	/usr/bin/python3 -c 'import sqlalchemy' 2>/dev/null || missing="$$missing python3-sqlalchemy"; \
	command -v javac >/dev/null || missing="$$missing default-jdk-headless"; \
	[ -f /usr/share/java/postgresql.jar ] || missing="$$missing libpostgresql-jdbc-java"; \
	command -v shellcheck >/dev/null || missing="$$missing shellcheck"; \
	command -v curl >/dev/null || missing="$$missing curl"; \
	command -v wget >/dev/null || missing="$$missing wget"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

test: test-deps
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 25m ./...
	@# Each micro-benchmark once, untimed: a benchmark checks its own
	@# answer, and one left behind by a change of representation fails
	@# here rather than in `make bench`.
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 10m ./...
	@$(MAKE) --no-print-directory fuzz FUZZTIME=$(FUZZTIME_TEST)

# The load suites drive the server with pgbench, which Debian ships with
# PostgreSQL's server programs (postgresql-contrib pulls them in).
bench-deps: test-deps
	@ls /usr/lib/postgresql/*/bin/pgbench >/dev/null 2>&1 || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-contrib; }

# Micro-benchmarks, then the end-to-end comparison with PostgreSQL (and,
# for TPC-H, DuckDB), the pgbench load and idle-connection suites and the
# latency of small statements (-suite latency); "-suite maintenance" (also
# `make soak-maintenance`) measures automatic maintenance under INSERTs.
# BENCH_FLAGS passes flags, e.g. "-suite tpch -tpch-sf 0.1" or
# "-suite load -load-clients 8 -load-duration 10s".
bench: bench-deps build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(GO) run ./compat-tests/bench $(BENCH_FLAGS)

# One server at a moderate, steady pgbench load for SOAK_DURATION: its RSS,
# Go heap and goroutines at the start and end. SOAK_FLAGS passes more flags,
# e.g. "-soak-rate 8 -soak-clients 8".
SOAK_DURATION ?= 30m
soak: bench-deps
	$(GO) run ./compat-tests/bench -suite soak -soak-duration $(SOAK_DURATION) $(SOAK_FLAGS)

# Single-row INSERTs into one table with automatic maintenance on, for
# MAINT_DURATION: the table's data, manifest and metadata files and a
# fixed SELECT's p50/p99, sampled every 10 s. MAINT_FLAGS passes more
# flags, e.g. "-maint-rate 50 -maint-writers 8".
MAINT_DURATION ?= 2m
soak-maintenance: build
	$(GO) run ./compat-tests/bench -suite maintenance -maint-duration $(MAINT_DURATION) $(MAINT_FLAGS)

lint:
	gofmt -l .
	$(GO) vet ./...

# Fuzzing of the decoders, parsers, binder and verifier: every
# `func FuzzXxx(f *testing.F)` of a _test.go file, FUZZTIME each (`make
# test` runs each for FUZZTIME_TEST). A fuzzing run takes one target, so
# each package's fuzzing test binary is built once and run per target, in
# the package's folder and with go test's corpus cache. An input that fails
# is saved under the package's testdata/fuzz/ (commit it: it then runs as a
# seed in every `go test`) and stops the loop. `make test` counts
# executions rather than seconds: Go 1.26's fuzz coordinator can fail a
# target that found nothing with "context deadline exceeded" when a
# wall-clock -fuzztime ends on a loaded machine (golang/go#75804, fixed in
# Go 1.27); a count has no deadline to race.
FUZZTIME      ?= 60s
FUZZTIME_TEST ?= 300x
fuzz:
	@bin=$$(mktemp -d) && trap 'rm -rf "$$bin"' EXIT && cache=$$($(GO) env GOCACHE)/fuzz && \
	for dir in $$(grep -rlE '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' --include='*_test.go' . | xargs -n1 dirname | sort -u); do \
		pkg=$$($(GO) list $$dir) && $(GO) test -c -fuzz . -o $$bin/fuzz.test $$dir || exit 1; \
		for f in $$(sed -nE 's/^func (Fuzz[A-Za-z0-9_]*)\(f \*testing\.F\).*/\1/p' $$dir/*_test.go); do \
			echo "== $$pkg $$f"; \
			(cd $$dir && $$bin/fuzz.test -test.run '^$$' -test.fuzz "^$$f$$" -test.fuzztime $(FUZZTIME) -test.fuzzcachedir $$cache/$$pkg) || exit 1; \
		done; \
	done

clean:
	rm -rf bin
