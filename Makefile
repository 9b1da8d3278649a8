# ward: a sandbox policy compiler (wardc) and a tiny launcher (ward).
#
#   make deps    install the Debian packages the build and the tests need
#   make         build wardc and ward into $(BUILD)/ (default: build/)
#   make check   build with -Werror and ASan/UBSan into build/san and run every
#                test (unit, golden, end-to-end, attacks)
#   make demo    compile the stdlib and run the main job on the default policy
#   make fuzz    run the libFuzzer targets for FUZZ_SECONDS each
#   make bench   benchmarks (speed and memory targets live here, not in tests)
#
# Several trees can be built side by side: make BUILD=build-x SAN=1 ...

BUILD ?= build
SAN ?= 0
PREFIX ?= /usr/local
DESTDIR ?=
FUZZ_SECONDS ?= 60
VERSION := 0.1.0

CC ?= cc
BISON ?= bison
FLEX ?= flex
PKG_CONFIG ?= pkg-config

# Libraries. The launcher links only what it must (no libseccomp: its BPF is
# precompiled by wardc; zlib for the exporter, which inflates a gzip file
# within the export caps to see what it holds: docs/spec.md 6.4).
#
# Everything read from the installed system (pkg-config) is a recursive
# variable, evaluated once, when a recipe first needs it: `make deps demo`
# parses this file before deps has installed anything, so a value taken at
# parse time would be empty (the link then fails on a fresh machine).
LAUNCHER_PKGS := libcap libsodium zlib
COMPILER_PKGS := libseccomp libsodium yaml-0.1
once = $(eval $(1) := $(2))$($(1))
PKG_CFLAGS = $(call once,PKG_CFLAGS,$(shell $(PKG_CONFIG) --cflags $(sort $(LAUNCHER_PKGS) $(COMPILER_PKGS) cmocka) 2>/dev/null))
LAUNCHER_LIBS = $(call once,LAUNCHER_LIBS,$(shell $(PKG_CONFIG) --libs $(LAUNCHER_PKGS) 2>/dev/null))
LAUNCHER_STATIC_LIBS = $(call once,LAUNCHER_STATIC_LIBS,$(shell $(PKG_CONFIG) --static --libs $(LAUNCHER_PKGS) 2>/dev/null))
COMPILER_LIBS = $(call once,COMPILER_LIBS,$(shell $(PKG_CONFIG) --libs $(COMPILER_PKGS) 2>/dev/null))
CMOCKA_LIBS = $(call once,CMOCKA_LIBS,$(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null))

WARNINGS := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla -Wno-unused-parameter
CFLAGS ?= -O2 -g
BASE_CFLAGS := -std=gnu11 $(WARNINGS) -D_GNU_SOURCE -DWARD_VERSION='"$(VERSION)"'
ALL_CFLAGS = $(BASE_CFLAGS) $(INC) $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS := $(LDFLAGS)
ifeq ($(SAN),1)
BASE_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=address,undefined
endif

# ---------------------------------------------------------------- layout
# The folders are the architecture (README, "Layout"):
#
#   lang ─▶ compiler/check ─▶ codegen ─▶ explain ─▶ lint, interop ─▶ cli
#                        (each uses only the phases before it)
#   compiler ─▶ common ◀─ launcher/core ◀─ launcher/supervisor ─▶ launcher/
#              (the blob contract)  ▲          unprivileged ─┘
#                                   └── launcher/lib (the run's facts) ──┘
#
# Each part is compiled with the include paths of the parts it may use and
# no others, so a header from a part it must not depend on does not
# compile. The privileged core (make tcb) is launcher/core, launcher/lib,
# launcher/supervisor and the files of common/ they use; launcher/
# unprivileged is never included by the core.
GEN := $(BUILD)/gen
LEXER_C := $(GEN)/lexer.c
PARSER_C := $(GEN)/parser.c
GEN_HDRS := $(GEN)/parser.h $(GEN)/lexer.h

inc = $(addprefix -I,$(1))
COMMON_INC := $(call inc,common)
LANG_INC := $(call inc,lang common $(GEN))
CHECK_INC := $(call inc,compiler/check lang common)
CODEGEN_INC := $(call inc,compiler/codegen compiler/check lang common)
EXPLAIN_INC := $(call inc,compiler/explain compiler/codegen compiler/check lang common)
LINT_INC := $(call inc,compiler/lint compiler/explain compiler/codegen compiler/check lang common)
INTEROP_INC := $(call inc,compiler/interop compiler/explain compiler/codegen compiler/check lang common)
WARDC_INC := $(call inc,compiler/cli compiler/lint compiler/interop compiler/explain compiler/codegen compiler/check lang common)
CORE_INC := $(call inc,launcher/core launcher/lib common)
UNPRIV_INC := $(call inc,launcher/unprivileged launcher/lib common)
SUPERVISOR_INC := $(call inc,launcher/supervisor launcher/unprivileged launcher/core launcher/lib common)
TEST_INC := $(call inc,. $(patsubst %/,%,$(sort $(dir $(wildcard compiler/*/*.h launcher/*/*.h)))) lang common $(GEN))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
src = $(wildcard $(addsuffix /*.c,$(1)))

COMMON_SRC := $(call src,common)
LANG_SRC := $(call src,lang)
CHECK_SRC := $(call src,compiler/check)
CODEGEN_SRC := $(call src,compiler/codegen)
EXPLAIN_SRC := $(call src,compiler/explain)
LINT_SRC := $(call src,compiler/lint)
INTEROP_SRC := $(call src,compiler/interop)
WARDC_SRC := $(call src,compiler/cli)
COMPILER_MAINS := compiler/cli/wardc.c
CORE_SRC := $(call src,launcher/core launcher/lib)
UNPRIV_SRC := $(call src,launcher/unprivileged)
SUPERVISOR_SRC := $(call src,launcher/supervisor)
LAUNCHER_MAINS := launcher/supervisor/main.c
TESTLIB_SRC := $(wildcard tests/oracle/*.c tests/lib/*.c)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
COMPILER_SRC := $(CHECK_SRC) $(CODEGEN_SRC) $(EXPLAIN_SRC) $(LINT_SRC) $(INTEROP_SRC) $(filter-out $(COMPILER_MAINS),$(WARDC_SRC))
LAUNCHER_SRC := $(CORE_SRC) $(UNPRIV_SRC) $(filter-out $(LAUNCHER_MAINS),$(SUPERVISOR_SRC))

$(call obj,$(COMMON_SRC)): INC = $(COMMON_INC)
$(call obj,$(LANG_SRC)): INC = $(LANG_INC)
$(call obj,$(CHECK_SRC)): INC = $(CHECK_INC)
$(call obj,$(CODEGEN_SRC)): INC = $(CODEGEN_INC)
$(call obj,$(EXPLAIN_SRC)): INC = $(EXPLAIN_INC)
$(call obj,$(LINT_SRC)): INC = $(LINT_INC)
$(call obj,$(INTEROP_SRC)): INC = $(INTEROP_INC)
$(call obj,$(WARDC_SRC)): INC = $(WARDC_INC)
$(call obj,$(CORE_SRC)): INC = $(CORE_INC)
$(call obj,$(UNPRIV_SRC)): INC = $(UNPRIV_INC)
$(call obj,$(SUPERVISOR_SRC)): INC = $(SUPERVISOR_INC)
$(call obj,$(TESTLIB_SRC) $(UNIT_SRC)): INC = $(TEST_INC)
$(BUILD)/obj/gen/lexer.o $(BUILD)/obj/gen/parser.o: INC = $(LANG_INC)
$(BUILD)/obj/gen/consts_table.o $(BUILD)/obj/gen/syscall_table.o: INC = $(CHECK_INC)
$(BUILD)/obj/gen/syscall_names.o: INC = $(UNPRIV_INC)

LANG_OBJ := $(call obj,$(LANG_SRC)) $(BUILD)/obj/gen/lexer.o $(BUILD)/obj/gen/parser.o
CORE_OBJ := $(call obj,$(COMMON_SRC))
LAUNCHER_OBJ := $(call obj,$(LAUNCHER_SRC)) $(BUILD)/obj/gen/syscall_names.o
COMPILER_OBJ := $(call obj,$(COMPILER_SRC)) $(BUILD)/obj/gen/consts_table.o $(BUILD)/obj/gen/syscall_table.o
TESTLIB_OBJ := $(call obj,$(TESTLIB_SRC))

LIBLANG := $(BUILD)/libwardlang.a
LIBCORE := $(BUILD)/libwardcommon.a
LIBLAUNCHER := $(BUILD)/libwardlauncher.a
LIBCOMPILER := $(BUILD)/libwardc.a
LIBTEST := $(BUILD)/libwardtest.a

WARDC := $(BUILD)/wardc
WARD := $(BUILD)/ward
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

SUITES := unit golden syscalls stdlib lint export exporter net agents e2e profiles attack attack-cells
.PHONY: all all-tests deps deps-sarif check test test-fuzz test-install test-fresh test-vm $(SUITES) demo fuzz fuzz-replay \
	bench format lint-c clean install uninstall man tcb sarif-multitool FORCE
.DELETE_ON_ERROR:

all: $(WARDC) $(WARD)

# ---------------------------------------------------------------- deps
# Idempotent and quiet: installs only what is missing.
DEB_PACKAGES := build-essential flex bison pkg-config libseccomp-dev libcap-dev \
	libyaml-dev libcmocka-dev libsodium-dev zlib1g-dev clang llvm libclang-rt-14-dev \
	iproute2 util-linux procps python3 python3-pip python3-yaml python3-venv mypy jq bubblewrap hyperfine valgrind \
	clang-format cppcheck groff-base man-db \
	linux-libc-dev-arm64-cross libc6-dev-arm64-cross strace \
	crun runc nodejs python3-numpy python3-pandas python3-scipy python3-matplotlib \
	debootstrap qemu-system-x86 linux-image-amd64 busybox-static cpio publicsuffix
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing$$(echo $$missing | sed 's/^/ /')"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else echo "deps: all present"; fi

# Sarif.Multitool (Microsoft's SARIF validator, from the npm registry) for
# the lint suite's SARIF checks; optional: without it they print SKIP.
SARIF_MULTITOOL_VERSION := 5.7.0
SARIF_MULTITOOL_BIN := build/npm/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
sarif-multitool:
	npm install --prefix build/npm --no-audit --no-fund --silent \
		@microsoft/sarif-multitool@$(SARIF_MULTITOOL_VERSION)
	chmod u+x $(SARIF_MULTITOOL_BIN)

# What `check` adds to `deps` (CI runs `make deps check` on a clean
# machine): npm and Sarif.Multitool, a .NET program that loads libicu72.
# Not in `deps`, the README's first command, whose only network is the
# Debian mirror (tests/fresh). npm: Debian's is a package of its own;
# NodeSource's nodejs carries one and conflicts with it, so it is asked
# for only when there is none. Failing here only makes the lint suite's
# Sarif.Multitool checks SKIP, which it says (and a registry that does not
# answer costs at most 5 minutes).
deps-sarif:
	@SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	dpkg-query -W -f='$${Status}\n' libicu72 2>/dev/null | grep -q '^install ok installed$$' || \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libicu72 >/dev/null || true; \
	command -v npm >/dev/null 2>&1 || \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null || true; \
	if [ ! -x $(SARIF_MULTITOOL_BIN) ]; then \
		echo "deps-sarif: installing Sarif.Multitool $(SARIF_MULTITOOL_VERSION) (npm)"; \
		timeout 300 $(MAKE) --no-print-directory sarif-multitool || \
			echo "deps-sarif: Sarif.Multitool not installed: the lint suite's checks with it SKIP"; \
	fi

# ---------------------------------------------------------------- generated
$(GEN):
	@mkdir -p $@

$(PARSER_C) $(GEN)/parser.h &: lang/parser.y | $(GEN)
	$(BISON) -Wall -Werror --defines=$(GEN)/parser.h -o $(PARSER_C) $<

$(LEXER_C) $(GEN)/lexer.h &: lang/lexer.l $(GEN)/parser.h | $(GEN)
	$(FLEX) --header-file=$(GEN)/lexer.h -o $(LEXER_C) $<

# Syscall names and numbers, from ward's copy of the kernel's tables
# (common/syscalls.tsv): for the compiler, which names every syscall of
# its targets whatever libseccomp knows, and for the run report (the
# launcher does not link libseccomp).
$(GEN)/syscall_table.c: tools/gen-syscall-table.sh common/syscalls.tsv | $(GEN)
	sh tools/gen-syscall-table.sh common/syscalls.tsv > $@.tmp && mv $@.tmp $@

$(GEN)/syscall_names.c: tools/gen-syscall-names.sh common/syscalls.tsv | $(GEN)
	sh tools/gen-syscall-names.sh common/syscalls.tsv > $@.tmp && mv $@.tmp $@

# Symbolic constants (AF_*, O_*, ...) from the system headers, at build time.
$(GEN)/consts_table.c: tools/gen-consts.sh tools/consts.list | $(GEN)
	CC="$(CC)" sh tools/gen-consts.sh tools/consts.list > $@.tmp && mv $@.tmp $@

# ---------------------------------------------------------------- objects
$(BUILD)/obj/gen/%.o: $(GEN)/%.c $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Wno-unused-function -Wno-sign-compare -Wno-shadow -c $< -o $@

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# Only the front end includes the generated parser and scanner headers.
$(call obj,$(LANG_SRC)): $(GEN_HDRS)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

$(LIBLANG): $(LANG_OBJ)
$(LIBCORE): $(CORE_OBJ)
$(LIBLAUNCHER): $(LAUNCHER_OBJ)
$(LIBCOMPILER): $(COMPILER_OBJ)
$(LIBTEST): $(TESTLIB_OBJ)
$(BUILD)/%.a:
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

# ---------------------------------------------------------------- programs
$(WARDC): $(call obj,$(COMPILER_MAINS)) $(LIBCOMPILER) $(LIBLANG) $(LIBCORE)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(COMPILER_LIBS)

# ward is linked statically (but not with sanitizers, which cannot be): it
# is exec'd for every run, and the dynamic loader was a quarter of its start.
WARD_LDFLAGS = $(if $(filter 1,$(SAN)),$(LAUNCHER_LIBS),-static $(LAUNCHER_STATIC_LIBS))
$(WARD): $(call obj,$(LAUNCHER_MAINS)) $(LIBLAUNCHER) $(LIBCORE)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(WARD_LDFLAGS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(LIBTEST) $(LIBCOMPILER) $(LIBLAUNCHER) $(LIBLANG) $(LIBCORE)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(COMPILER_LIBS) $(LAUNCHER_LIBS) $(CMOCKA_LIBS)

# ---------------------------------------------------------------- tests
# check: the sanitizer tree, every suite. The closing line counts suites'
# results as "N passed, N failed".
# (The build runs a job per CPU: on CI's two cores it is most of a
# minute less.)
NPROC = $(call once,NPROC,$(shell nproc 2>/dev/null || echo 1))
check: deps-sarif
	$(MAKE) --no-print-directory -j$(NPROC) BUILD=$(BUILD)/san SAN=1 all-tests
	@BUILD=$(BUILD)/san sh tests/run.sh all

all-tests: all $(UNIT_BINS)

# One suite each (tests/run.sh names them); the fuzz replay and the install
# suite are test-fuzz and test-install, since fuzz and install are targets
# of their own.
test: all-tests
	@BUILD=$(BUILD) sh tests/run.sh all
$(SUITES): all-tests
	@BUILD=$(BUILD) sh tests/run.sh $@
test-fuzz test-install: all-tests
	@BUILD=$(BUILD) sh tests/run.sh $(patsubst test-%,%,$@)
# The fresh-machine suite builds in a Debian root of its own (not in check).
test-fresh:
	@sh tests/run.sh fresh
# The cgroup parts of the suites on a second kernel, pure cgroup v2, under
# qemu (tests/vm; not in check): the normal build, which TCG runs faster
# than the sanitizers'.
test-vm:
	@$(MAKE) --no-print-directory -j$(NPROC) all $(ATTACK_BINS)
	@BUILD=$(BUILD) sh tests/run.sh vm

# ---------------------------------------------------------------- tcb
# The privileged core: every file of what runs as root or before the
# target's execve (README, "The privileged core"; docs/spec.md 3.1).
TCB_FILES = $(sort $(wildcard launcher/core/*.[ch] launcher/lib/*.[ch] launcher/supervisor/*.[ch])) \
	$(addprefix common/,answer_ranges.c answer_ranges.h blob.h blob_read.c blob_read.h net_layout.h policy.h port_slots.c port_slots.h sha256.c sha256.h signature.c signature.h util.c util.h)
tcb:
	@wc -l $(TCB_FILES) | sed '$$s/total$$/total: the privileged core/'

# ---------------------------------------------------------------- demo
demo: all
	@sh tools/demo.sh $(BUILD)

# ---------------------------------------------------------------- fuzz
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BUILD := build/fuzz
fuzz fuzz-replay:
	@sh tests/fuzz/run.sh $@ $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# ---------------------------------------------------------------- bench
bench: all $(BUILD)/attacks/mkblob
	@sh tests/bench/run.sh $(BUILD)

# ---------------------------------------------------------------- style
format:
	clang-format -i $$(git ls-files '*.c' '*.h')

lint-c:
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
		--suppress=missingIncludeSystem --inline-suppr -D_GNU_SOURCE -D__x86_64__ \
		$(TEST_INC) common lang compiler launcher

clean:
	rm -rf build build-*

# ================================================================ install
# (The block of the Unix conventions: man pages, make install/uninstall.)
#
#   make man                      the man pages, into $(BUILD)/man/
#   make install [PREFIX=/usr/local] [DESTDIR=]
#   make uninstall [PREFIX=...] [DESTDIR=...]
#
# install puts wardc and ward in $(PREFIX)/bin (0755, never setuid), the
# stdlib in $(PREFIX)/share/ward/stdlib (wardc looks for it at
# <its own dir>/../share/ward/stdlib), the man pages, the bash completion
# (wardc, and ward as a link to it) and the docs. uninstall removes exactly
# those files, then the directories of ours that are left empty.
bindir = $(PREFIX)/bin
datadir = $(PREFIX)/share
# ward-attack's catalogue: the attack files, their library and the static
# programs they run inside the sandbox.
attackdir = $(PREFIX)/libexec/ward/attacks
stdlibdir = $(datadir)/ward/stdlib
man1dir = $(datadir)/man/man1
man5dir = $(datadir)/man/man5
completiondir = $(datadir)/bash-completion/completions
docdir = $(datadir)/doc/ward
INSTALL ?= install

MAN_SRC := $(wildcard man/*.1 man/*.5)
MAN_OUT := $(patsubst man/%,$(BUILD)/man/%,$(MAN_SRC))
# The date in the pages' footer: of the last commit that touched them, so
# that a rebuild does not change them.
MAN_DATE = $(or $(shell git log -1 --format=%cs -- man 2>/dev/null),$(shell date -u -r man +%Y-%m-%d 2>/dev/null),unknown)
STDLIB_FILES := $(wildcard stdlib-policies/*.ward stdlib-policies/*/*.ward stdlib-policies/*/*/*.ward)
STDLIB_DIRS := $(patsubst stdlib-policies/%,%,$(filter-out stdlib-policies/,$(sort $(dir $(STDLIB_FILES)))))
DOC_FILES := $(wildcard docs/*.md)

all: man

man: $(MAN_OUT)

# The substituted values, rewritten only when they change, so that the pages
# are remade for another PREFIX or VERSION and not otherwise.
$(BUILD)/man/.subst: FORCE
	@mkdir -p $(@D)
	@v='$(VERSION) $(PREFIX) $(MAN_DATE)'; \
	[ -f $@ ] && [ "$$(cat $@)" = "$$v" ] || printf '%s\n' "$$v" > $@

$(MAN_OUT): $(BUILD)/man/%: man/% $(BUILD)/man/.subst
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@PREFIX@|$(PREFIX)|g' \
		-e 's|@DATE@|$(MAN_DATE)|g' $< > $@.tmp && mv $@.tmp $@

# The attack catalogue's programs, built for make install (in the source
# tree, ward-attack builds them itself into its scratch directory).
ATTACK_BINS := $(addprefix $(BUILD)/attacks/,probe atk brk mkblob)
ATTACK_DIRS := files identity net resources
$(BUILD)/attacks/probe: tests/e2e/probe.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -static -o $@ $<
$(BUILD)/attacks/atk $(BUILD)/attacks/brk: $(BUILD)/attacks/%: tests/attacks/lib/%.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -static -pthread -o $@ $<
$(BUILD)/attacks/mkblob: tests/e2e/mkblob.c compiler/codegen/blob_write.c compiler/codegen/landlock_rules.c common/blob_read.c common/answer_ranges.c common/sha256.c common/util.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -D_GNU_SOURCE -Icommon -Icompiler/codegen -o $@ $^ -lseccomp -lsodium

# A sanitizer build is for tests; what is installed is the normal build.
ifneq ($(filter install,$(MAKECMDGOALS)),)
ifeq ($(SAN),1)
$(error make install installs the normal build: drop SAN=1)
endif
endif

install: all $(ATTACK_BINS)
	$(INSTALL) -d -m 0755 $(DESTDIR)$(bindir) $(DESTDIR)$(man1dir) \
		$(DESTDIR)$(man5dir) $(DESTDIR)$(completiondir) \
		$(DESTDIR)$(docdir) $(DESTDIR)$(stdlibdir) \
		$(addprefix $(DESTDIR)$(stdlibdir)/,$(STDLIB_DIRS)) \
		$(addprefix $(DESTDIR)$(attackdir)/,lib bin $(ATTACK_DIRS))
	$(INSTALL) -m 0755 $(WARDC) $(WARD) $(DESTDIR)$(bindir)/
	$(INSTALL) -m 0755 tools/ward-attack $(DESTDIR)$(bindir)/ward-attack
	$(INSTALL) -m 0755 $(ATTACK_BINS) $(DESTDIR)$(attackdir)/bin/
	$(INSTALL) -m 0644 tests/attacks/lib/*.sh tests/attacks/lib/icmpcount.py \
		tests/net/testhost.py tests/net/dnsserver.py tests/net/tlsprobe.py \
		tests/net/dnsflood.py \
		$(DESTDIR)$(attackdir)/lib/
	$(foreach d,$(ATTACK_DIRS),$(INSTALL) -m 0644 tests/attacks/$(d)/*.sh $(DESTDIR)$(attackdir)/$(d)/ &&) true
	$(foreach f,$(STDLIB_FILES),$(INSTALL) -m 0644 $(f) $(DESTDIR)$(stdlibdir)/$(patsubst stdlib-policies/%,%,$(f)) &&) true
	$(INSTALL) -m 0644 $(filter %.1,$(MAN_OUT)) $(DESTDIR)$(man1dir)/
	$(INSTALL) -m 0644 $(filter %.5,$(MAN_OUT)) $(DESTDIR)$(man5dir)/
	$(INSTALL) -m 0644 completion/ward.bash $(DESTDIR)$(completiondir)/wardc
	ln -sf wardc $(DESTDIR)$(completiondir)/ward
	$(INSTALL) -m 0644 $(DOC_FILES) $(DESTDIR)$(docdir)/
	$(INSTALL) -m 0644 launcher/session/python_driver.py $(DESTDIR)$(datadir)/ward/

uninstall:
	rm -f $(DESTDIR)$(bindir)/wardc $(DESTDIR)$(bindir)/ward $(DESTDIR)$(bindir)/ward-attack
	rm -rf $(DESTDIR)$(attackdir)
	-rmdir $(DESTDIR)$(PREFIX)/libexec/ward $(DESTDIR)$(PREFIX)/libexec 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(stdlibdir)/,$(patsubst stdlib-policies/%,%,$(STDLIB_FILES)))
	rm -f $(addprefix $(DESTDIR)$(man1dir)/,$(notdir $(filter %.1,$(MAN_SRC))))
	rm -f $(addprefix $(DESTDIR)$(man5dir)/,$(notdir $(filter %.5,$(MAN_SRC))))
	rm -f $(DESTDIR)$(completiondir)/wardc $(DESTDIR)$(completiondir)/ward
	rm -f $(addprefix $(DESTDIR)$(docdir)/,$(notdir $(DOC_FILES)))
	rm -f $(DESTDIR)$(datadir)/ward/python_driver.py
	@for d in $$(printf '%s\n' $(addprefix $(DESTDIR)$(stdlibdir)/,$(STDLIB_DIRS)) | sort -r) \
		$(DESTDIR)$(stdlibdir) $(DESTDIR)$(datadir)/ward $(DESTDIR)$(docdir); do \
		if [ -d "$$d" ]; then rmdir --ignore-fail-on-non-empty "$$d"; fi; \
	done

FORCE:
