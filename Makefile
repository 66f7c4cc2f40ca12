# rogued - a telnet roguelike server.
#
#   make          build the server (build/rel/rogued)
#   make run      install missing Debian packages, build, serve (on PORT if
#                 given; else the config file's, ROGUED_PORT or 2323)
#   make test     install what the tests need, build, run every test
#   make check    the unit and session families only (sanitizer build): the
#                 quick answer while working (about 2 minutes)
#   make soak     the property and soak tests with their long counts
#                 (ROGUED_SOAK=1; `make test` runs them short)
#   make test-under-load  `make test` while busy processes keep every core
#                 at 100% (tests/under-load.sh: the tests depend on no speed)
#   make bench    build and print the benchmark tables
#   make fuzz     run each libFuzzer target for longer (FUZZ_SECONDS each)
#   make pg       the store's tests again on PostgreSQL (a throwaway cluster
#                 made with pg_virtualenv; part of `make test` too)
#   make tsan     the session tests that cross threads (the store's thread,
#                 the hashing and rebuilding pool) against a ThreadSanitizer
#                 build of the server (part of `make test` too)
#   make image-check  build the Docker image with podman from a Debian base
#                 of its own and run its entrypoint (root, network; not part
#                 of `make test`: tests/image/image-check.sh)
#   make clean
#
# Two builds live side by side: build/rel (optimised, what `make run` serves)
# and build/san (AddressSanitizer + UndefinedBehaviorSanitizer, what the unit
# and session tests run); build/tsan is the server under ThreadSanitizer and
# build/fuzz holds the libFuzzer targets. Sources are
# found by wildcard: a new file in common/, server/ or a folder of server/
# needs no Makefile edit;
# a new tests/unit/test_*.c or tests/session/test_*.c becomes a test binary of
# its own.
#
# Rebuilds are exact: the compiler writes each object's header dependencies
# (-MMD -MP, test headers included), and each build folder keeps the compiler
# and flags it was built with in a file named `flags` that every object
# depends on: `make CC=clang`, `make CFLAGS=-DX` or an edit of SAN_FLAGS
# rebuilds what they change, and nothing else does.

PORT ?=
ARGS ?=
CC ?= cc
FUZZ_CC ?= clang
FUZZ_RUNS ?= 200000
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 60
# Extra flags of your own, added to every compile (CFLAGS) and link (LDFLAGS).
CFLAGS ?=
LDFLAGS ?=

# Debian packages: what the server needs to build and run, and what the tests
# add. `make deps` / `make test-deps` install whichever are missing.
# libpq-dev is the PostgreSQL client library, linked always (the server only
# talks to a database server when `store = postgresql://...` says so); the
# PostgreSQL server itself (PG_PKGS) is for the tests' throwaway clusters and
# the benchmark, with HAProxy for the two-host test in front of them; the
# family is skipped if they cannot be installed.
RUN_PKGS  := gcc make pkg-config libuv1-dev libtelnet-dev libsqlite3-dev libsodium-dev \
             libwslay-dev libhttp-parser-dev nettle-dev curl ca-certificates libpq-dev \
             libssh-dev
PG_PKGS   := postgresql postgresql-common haproxy
TEST_PKGS := $(RUN_PKGS) check libvterm-dev telnet openssh-client tmux clang libclang-rt-dev \
             libncurses-dev ttyrec asciinema ncurses-term prometheus stress-ng

WARN := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Werror
STD  := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
# server/ is in parts (net, session, store, cluster: docs/architecture.md);
# each folder is on the include path, so a file names a header by its name.
SERVER_DIRS := server $(sort $(dir $(wildcard server/*/*.c)))
INC  := -Icommon $(patsubst %,-I%,$(SERVER_DIRS:/=))
PKG_CFLAGS = $(shell pkg-config --cflags libuv libtelnet sqlite3 libsodium nettle libpq libssh 2>/dev/null)
# wslay and http-parser ship no pkg-config file in Debian.
PKG_LIBS   = $(shell pkg-config --libs libuv libtelnet sqlite3 libsodium nettle libpq libssh 2>/dev/null) \
             -lwslay -lhttp_parser
TEST_CFLAGS = $(shell pkg-config --cflags check vterm 2>/dev/null)
TEST_LIBS   = $(shell pkg-config --libs check vterm 2>/dev/null) -lm

# The release build's code (docs/performance.md, "The release build's code
# (2026-11-27)"): a key's code runs with the caches cold after its system
# calls, so fewer instruction lines a key is what pays.
# -fno-plt: libuv, libtelnet and libc called through the GOT, not through a
#   PLT stub (a jump and, called cold, a cache line less a call).
# REL_LTO (off by default): `make REL_LTO=-flto=auto` inlines the modules
#   into each other at link; measured 3% fewer instructions a key, but it
#   renames or inlines the functions the instr part of `make bench` counts
#   by name (game_key.isra.0, sess_send), which breaks that split, and the
#   link takes ~12 s more: not worth it by default.
# -O3: 3% fewer instructions a key than -O2 (the turn's and the draw's
#   loops), and a key's time follows its instructions, not its cache lines
#   (docs/performance.md, "The floor's gap is instructions, not lines"):
#   7% more code costs nothing there.
# Not taken: -fno-semantic-interposition (the server is PIE, which already
# binds its own functions: not one byte changed), -march (the binary runs
# on any x86-64 Debian 12).
REL_LTO   ?=
REL_FLAGS := -O3 -g -fno-plt $(REL_LTO)
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
             -fno-sanitize-recover=all
TSAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=thread

CORE_SRC   := $(sort $(wildcard common/*.c))
SERVER_SRC := $(sort $(filter-out server/main.c,$(wildcard server/*.c server/*/*.c)))
UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))
SESS_SRC   := $(sort $(wildcard tests/session/test_*.c))
SESS_LIB   := $(sort $(filter-out $(SESS_SRC),$(wildcard tests/session/*.c)))
FUZZ_SRC   := $(sort $(wildcard tests/fuzz/fuzz_*.c))
BENCH_SRC  := $(sort $(wildcard tests/bench/bench_*.c))

# The browser page, generated into build/gen (web/embed.sh): part of every
# build's library like a source file.
GEN_SRC  := build/gen/web_assets.c
LIB_OBJS = $(patsubst %.c,build/$(1)/%.o,$(CORE_SRC) $(SERVER_SRC) $(GEN_SRC))
# Everything but main() goes into one archive per build, so that a test links
# only the modules it uses.
LIB = build/$(1)/librogue.a

.SECONDEXPANSION:
.SECONDARY:
.PHONY: all run test check print-cflags soak test-under-load test-build unit session e2e tsan pg cluster fuzz-smoke fuzz bench deps test-deps clean image-check FORCE
.DELETE_ON_ERROR:

all: build/rel/rogued

# --- flags -------------------------------------------------------------------
# Everything that decides what a build folder's objects and binaries contain.
# Tests' pkg-config flags are in all three so that one file says it all.
FLAGS_rel  = $(CC) $(STD) $(WARN) $(INC) $(REL_FLAGS) $(CFLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) : $(LDFLAGS) $(PKG_LIBS) $(TEST_LIBS)
FLAGS_san  = $(CC) $(STD) $(WARN) $(INC) $(SAN_FLAGS) $(CFLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) : $(LDFLAGS) $(PKG_LIBS) $(TEST_LIBS)
FLAGS_tsan = $(CC) $(STD) $(WARN) $(INC) $(TSAN_FLAGS) $(CFLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) : $(LDFLAGS) $(PKG_LIBS) $(TEST_LIBS)
FLAGS_fuzz = $(FUZZ_CC) $(STD) $(INC) $(FUZZ_FLAGS) $(CFLAGS) $(PKG_CFLAGS) : $(LDFLAGS) $(PKG_LIBS)

# Rewritten only when its contents change, so its date is the date of the
# last change of flags (the recipe runs every time; the file rarely changes).
build/%/flags: FORCE
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(strip $(FLAGS_$*))' ]; then \
	  printf '%s\n' '$(strip $(FLAGS_$*))' > $@; fi

# --- objects -----------------------------------------------------------------
DEPFLAGS = -MMD -MP
TESTINC  = $(if $(filter tests/%,$<),-Itests -Itests/session $(TEST_CFLAGS))

build/rel/%.o: %.c build/rel/flags
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(INC) $(REL_FLAGS) $(CFLAGS) $(DEPFLAGS) $(PKG_CFLAGS) $(TESTINC) -c $< -o $@

build/san/%.o: %.c build/san/flags
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(INC) $(SAN_FLAGS) $(CFLAGS) $(DEPFLAGS) $(PKG_CFLAGS) $(TESTINC) -c $< -o $@

build/tsan/%.o: %.c build/tsan/flags
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(INC) $(TSAN_FLAGS) $(CFLAGS) $(DEPFLAGS) $(PKG_CFLAGS) $(TESTINC) -c $< -o $@

build/%/librogue.a: $$(call LIB_OBJS,%)
	@rm -f $@
	ar rcs $@ $^

# --- the browser page ----------------------------------------------------------
# xterm.js from the npm registry (web/assets.lock: pinned, SHA-512 checked),
# fetched once into build/web; without the network the page only points to
# telnet (web/fetch-assets.sh says so), and the build goes on.
build/web/.fetched: web/assets.lock web/fetch-assets.sh
	web/fetch-assets.sh build/web
	@touch $@

$(GEN_SRC): build/web/.fetched web/index.html web/font.js web/no-terminal.html \
            web/favicon.svg web/embed.sh
	@mkdir -p $(dir $@)
	web/embed.sh $@ build/web

# --- the server ----------------------------------------------------------------
# The release links take $(WARN): with REL_LTO the code is generated at
# link, where its warnings appear (`ar` indexes the LTO objects through the gcc
# package's /usr/lib/bfd-plugins/liblto_plugin.so).
build/rel/rogued: build/rel/server/main.o $(call LIB,rel)
	$(CC) $(WARN) $(REL_FLAGS) $(LDFLAGS) $^ $(PKG_LIBS) -lm -o $@

build/san/rogued: build/san/server/main.o $(call LIB,san)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) $^ $(PKG_LIBS) -lm -o $@

build/tsan/rogued: build/tsan/server/main.o $(call LIB,tsan)
	$(CC) $(TSAN_FLAGS) $(LDFLAGS) $^ $(PKG_LIBS) -lm -o $@

# --- tests ---------------------------------------------------------------------
UNIT_BINS := $(patsubst tests/unit/%.c,build/san/tests/unit/%,$(UNIT_SRC))
SESS_BINS := $(patsubst tests/session/%.c,build/san/tests/session/%,$(SESS_SRC))
FUZZ_BINS := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(FUZZ_SRC))
# Unit tests of code shared between threads, also built with ThreadSanitizer
# (the tsan family runs them beside the session suites).
TSAN_UNIT := test_inbox test_directory test_store_keys test_store_bans test_guest_grace test_login_tokens test_rebuild_pool test_progress_claim test_store_fair
TSAN_UNIT_BINS := $(patsubst %,build/tsan/tests/unit/%,$(TSAN_UNIT))
BENCH_BINS := $(patsubst tests/bench/%.c,build/rel/tests/bench/%,$(BENCH_SRC))

# test_rebuild_pool runs memory out on a rebuild's thread: its callocs go
# through the test's own __wrap_calloc.
build/san/tests/unit/test_rebuild_pool build/tsan/tests/unit/test_rebuild_pool: LDFLAGS += -Wl,--wrap=calloc

build/san/tests/unit/%: build/san/tests/unit/%.o $(call LIB,san)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) $^ $(PKG_LIBS) $(TEST_LIBS) -o $@

# The encoder's plain C paths, which every x86-64 build skips for its SSE2
# ones (common/screen_diff.c, screen_floor.c, and screen.c's screen_puts):
# the encoder's and the view cache's suites again, linked with those built
# without __SSE2__ (a CPU without it, or another architecture, runs these
# paths).
NOSSE2_OBJS := build/san/nosse2/common/screen_diff.o build/san/nosse2/common/screen_floor.o \
               build/san/nosse2/common/screen.o
NOSSE2_BINS := build/san/tests/unit/test_screen_diff_nosse2 build/san/tests/unit/test_view_cache_nosse2
UNIT_BINS += $(NOSSE2_BINS)

build/san/nosse2/%.o: %.c build/san/flags
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(INC) $(SAN_FLAGS) $(CFLAGS) -U__SSE2__ $(DEPFLAGS) $(PKG_CFLAGS) -c $< -o $@

build/san/tests/unit/%_nosse2: build/san/tests/unit/%.o $(NOSSE2_OBJS) $(call LIB,san)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) $^ $(PKG_LIBS) $(TEST_LIBS) -o $@

build/tsan/tests/unit/%: build/tsan/tests/unit/%.o $(call LIB,tsan)
	$(CC) $(TSAN_FLAGS) $(LDFLAGS) $^ $(PKG_LIBS) $(TEST_LIBS) -o $@

build/san/tests/session/%: build/san/tests/session/%.o $(patsubst %.c,build/san/%.o,$(SESS_LIB)) $(call LIB,san)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) $^ $(PKG_LIBS) $(TEST_LIBS) -o $@

# The session tests' LD_PRELOAD shims (tests/preload/), preloaded into the
# server a test starts: built without sanitizers, so that each goes into
# the san, tsan and rel servers alike. Order-only: not linked in.
build/san/tests/preload/%.so: tests/preload/%.c build/san/flags
	@mkdir -p $(@D)
	$(CC) $(STD) $(WARN) -O1 -g -fPIC -shared $(CFLAGS) $(LDFLAGS) $< -ldl -o $@
# test_accept_errors': accept4 failing on demand.
build/san/tests/session/test_accept_errors: | build/san/tests/preload/accept_fault.so
# test_rebuilds': the rebuilds' thread held before its first job.
build/san/tests/session/test_rebuilds: | build/san/tests/preload/rebuild_hold.so
# test_hash_busy's: password checks held in the pool.
build/san/tests/session/test_hash_busy build/san/tests/session/test_site: | build/san/tests/preload/hash_hold.so
# (test_site: a page's dump held behind a password check)
# test_limits', test_web_limits', test_early_input's and test_session's: the
# clock moved by the test (the idle warning and disconnect, the
# negotiation's deadline, a paste's end mark cut short).
build/san/tests/session/test_limits build/san/tests/session/test_web_limits build/san/tests/session/test_early_input build/san/tests/session/test_session: | build/san/tests/preload/clock_shift.so

# The browser test's helper: a seed and keys for aiming a scroll (game core
# and the tests' walker only).
build/san/tests/web/fireball_plan: build/san/tests/web/fireball_plan.o build/san/tests/session/walker.o $(call LIB,san)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) $^ $(PKG_LIBS) -lm -o $@
build/san/tests/web/stairs_plan: build/san/tests/web/stairs_plan.o build/san/tests/session/walker.o $(call LIB,san)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) $^ $(PKG_LIBS) -lm -o $@

build/rel/tests/bench/%: build/rel/tests/bench/%.o $(call LIB,rel)
	$(CC) $(WARN) $(REL_FLAGS) $(LDFLAGS) $^ $(PKG_LIBS) $(TEST_LIBS) -lncursesw -o $@

# libFuzzer targets: clang with the sanitizers. The modules of the core and
# the server that the targets use are compiled once (instrumented, without
# libFuzzer's main) into an archive of their own; each target links it with
# -fsanitize=fuzzer.
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined
FUZZ_OBJS  := $(patsubst %.c,build/fuzz/obj/%.o,$(CORE_SRC) $(SERVER_SRC) $(GEN_SRC))
FUZZ_HARNESS := $(patsubst tests/fuzz/%.c,build/fuzz/obj/tests/fuzz/%.o,$(FUZZ_SRC))

build/fuzz/obj/%.o: %.c build/fuzz/flags
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(STD) $(INC) $(FUZZ_FLAGS) $(CFLAGS) $(DEPFLAGS) $(PKG_CFLAGS) -c $< -o $@

# Which modules those are (about half of them): the targets' own objects
# linked (ld -r) against the sanitizer build's archive of the same sources
# take from it exactly the members their final link would, named in the
# link map. build/fuzz/used.mk lists them (FUZZ_USED); it is read, and
# remade first when a target or the library changed, only when a goal is
# in build/fuzz/ (make fuzz, make test), so `make` alone never builds the
# sanitizer library for it.
build/fuzz/used.mk: $(FUZZ_HARNESS) $(call LIB,san)
	@for o in $(FUZZ_HARNESS); do \
	  ld -r -o $@.o $$o $(call LIB,san) -Map=$@.map || exit 1; \
	  sed -n 's/^build\/san\/librogue\.a(\([^)]*\)).*/\1/p' $@.map; \
	done | sort -u | sed 's/^/FUZZ_USED += /' >$@.tmp
	@rm -f $@.o $@.map
	@mv $@.tmp $@
ifneq ($(filter build/fuzz/%,$(MAKECMDGOALS)),)
-include build/fuzz/used.mk
endif
# (all of them when the list is not read)
FUZZ_LIB_OBJS = $(if $(FUZZ_USED),$(foreach m,$(FUZZ_USED),$(filter %/$(m),$(FUZZ_OBJS))),$(FUZZ_OBJS))

build/fuzz/librogue.a: $$(FUZZ_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_BINS): build/fuzz/%: build/fuzz/obj/tests/fuzz/%.o build/fuzz/librogue.a
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined $(LDFLAGS) $^ $(PKG_LIBS) -lm -o $@

# What the compiler found each object to include (absent before the first
# build, when every object is built anyway).
ALL_SRC := $(CORE_SRC) $(SERVER_SRC) server/main.c $(UNIT_SRC) $(SESS_SRC) $(SESS_LIB) $(BENCH_SRC) tests/web/fireball_plan.c tests/web/stairs_plan.c
-include $(foreach b,rel san,$(patsubst %.c,build/$(b)/%.d,$(ALL_SRC))) \
         $(patsubst %.c,build/tsan/%.d,$(CORE_SRC) $(SERVER_SRC) server/main.c $(TSAN_UNIT:%=tests/unit/%.c)) \
         $(patsubst %.c,build/fuzz/obj/%.d,$(CORE_SRC) $(SERVER_SRC) $(FUZZ_SRC))

# --- commands ------------------------------------------------------------------
# Built with as many jobs as cores; once it listens the log says how to
# connect (`telnet HOST PORT`, the browser's and SSH's lines when on).
# ROGUED_MAKE_RUN tells the server it was started here, so that a port in
# use is moved with `make run PORT=N`, not a flag the host never typed.
run: deps
	$(MAKE) -j$(JOBS) --no-print-directory build/rel/rogued
	ROGUED_MAKE_RUN=1 ./build/rel/rogued $(if $(PORT),--port $(PORT)) $(ARGS)

# Everything `make test` runs, built with as many jobs as cores.
TEST_BUILD := build/rel/rogued build/san/rogued build/tsan/rogued $(UNIT_BINS) $(SESS_BINS) \
              $(TSAN_UNIT_BINS) $(FUZZ_BINS) build/san/tests/web/fireball_plan \
              build/san/tests/web/stairs_plan build/rel/tests/bench/bench_core
test-build:
	$(MAKE) -j$(JOBS) --no-print-directory $(TEST_BUILD)

test: test-deps
	$(MAKE) --no-print-directory test-build
	FUZZ_RUNS=$(FUZZ_RUNS) tests/run-tests.sh

# The whole suite with every core kept busy (stress-ng, or shell loops
# without it), started and stopped by tests/under-load.sh.
test-under-load: test-deps
	$(MAKE) --no-print-directory test-build
	FUZZ_RUNS=$(FUZZ_RUNS) tests/under-load.sh tests/run-tests.sh

# The compile flags every build shares (the language, warnings, include
# folders): tests/lint/clang_warnings.sh compiles with them.
print-cflags:
	@echo $(STD) $(WARN) $(INC)

# The developer's quick answer: unit and session on the sanitizer build.
check: test-deps
	$(MAKE) -j$(JOBS) --no-print-directory build/san/rogued $(UNIT_BINS) $(SESS_BINS)
	tests/run-tests.sh unit session

# Property and soak tests with their long counts (test_view_cache's random
# screens and the like: soak_count in tests/check_main.h).
soak: test-deps
	$(MAKE) -j$(JOBS) --no-print-directory $(UNIT_BINS)
	ROGUED_SOAK=1 CK_TIMEOUT_MULTIPLIER=4 tests/run-tests.sh unit

unit: test-deps
	$(MAKE) -j$(JOBS) --no-print-directory $(UNIT_BINS)
	tests/run-tests.sh unit

session: test-deps
	$(MAKE) -j$(JOBS) --no-print-directory build/san/rogued $(SESS_BINS)
	tests/run-tests.sh session

e2e: test-deps
	$(MAKE) --no-print-directory build/rel/rogued build/san/tests/web/fireball_plan build/san/tests/web/stairs_plan
	tests/run-tests.sh e2e

# The store's suites and test_pg_* on a throwaway PostgreSQL cluster.
pg: test-deps
	$(MAKE) -j$(JOBS) --no-print-directory build/san/rogued build/tsan/rogued $(UNIT_BINS) $(SESS_BINS)
	tests/run-tests.sh pg

# test_pg_cluster, test_pg_cluster_loss, test_pg_cluster_tokens: HAProxy
# and several hosts on one throwaway PostgreSQL.
cluster: test-deps
	$(MAKE) -j$(JOBS) --no-print-directory build/san/rogued build/tsan/rogued build/san/tests/session/test_pg_cluster build/san/tests/session/test_pg_cluster_loss build/san/tests/session/test_pg_cluster_tokens
	tests/run-tests.sh cluster

tsan: test-deps
	$(MAKE) -j$(JOBS) --no-print-directory build/tsan/rogued $(SESS_BINS) $(TSAN_UNIT_BINS)
	tests/run-tests.sh tsan

fuzz: test-deps
	$(MAKE) --no-print-directory $(FUZZ_BINS)
	@for f in $(FUZZ_BINS); do echo "== $$f ($(FUZZ_SECONDS) s)"; \
	  mkdir -p build/fuzz/corpus/$$(basename $$f); \
	  $$f -max_total_time=$(FUZZ_SECONDS) build/fuzz/corpus/$$(basename $$f) || exit 1; done

bench: test-deps
	$(MAKE) --no-print-directory build/rel/rogued $(BENCH_BINS)
	tests/bench/run-bench.sh

# The container image, built and its contents run without a container
# runtime (root; Debian's mirror; the base is cached in build/image).
image-check:
	tests/image/image-check.sh

# Installs whichever Debian packages are missing (apt-get, as root or via sudo).
deps:
	@tests/install-deps.sh $(RUN_PKGS)
test-deps:
	@tests/install-deps.sh $(TEST_PKGS)
	@tests/install-deps.sh $(PG_PKGS) || \
	  echo "PostgreSQL cannot be installed here: the pg tests will be skipped"

clean:
	rm -rf build
