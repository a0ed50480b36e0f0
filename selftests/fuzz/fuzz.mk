# SPDX-License-Identifier: GPL-2.0
#
# Fuzzing harnesses (libFuzzer via clang), included by the top-level Makefile.
#
#   make fuzz-build                  build/fuzz/fuzz_validator (+ fuzz_vasm)
#   make check-fuzz [FUZZ_SECONDS=N] run each harness N seconds (default 60)
#                                    from a copy of its corpus; TAP goes to
#                                    $(BUILD)/results/fuzz.tap
#
# The corpora in selftests/fuzz/corpus/ are the seeds; new inputs found by a
# run stay in the copy under build/fuzz/ (merge them by hand if useful).

FUZZ_SECONDS	?= 60
FUZZ_BUILD	:= $(BUILD)/fuzz
FUZZ_CFLAGS	:= $(NATIVE_CFLAGS) $(CLI_INC) -O1 -fno-omit-frame-pointer \
		   -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# Inputs up to 4128 instructions, so the length limit is exercised too.
FUZZ_MAX_LEN	?= 33024
FUZZ_TARGETS	:= validator vasm kineto nsys accelsim
FUZZ_BINS	:= $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_TARGETS))

.PHONY: fuzz-build check-fuzz

$(FUZZ_BUILD)/fuzz_validator: selftests/fuzz/fuzz_validator.c \
		driver/core/isa.c $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ selftests/fuzz/fuzz_validator.c \
		driver/core/isa.c

$(FUZZ_BUILD)/fuzz_vasm: selftests/fuzz/fuzz_vasm.c userspace/libworkload/vasm.c \
		driver/core/isa.c $(CORE_HDRS) $(WL_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ selftests/fuzz/fuzz_vasm.c \
		userspace/libworkload/vasm.c driver/core/isa.c

# The recording readers with the mapping, the assembler and the
# core they use.
FUZZ_IMPORT_SRCS := $(WL_SRCS) $(CORE_SRCS) $(UCORE_SRCS)

$(FUZZ_BUILD)/fuzz_kineto $(FUZZ_BUILD)/fuzz_nsys $(FUZZ_BUILD)/fuzz_accelsim: \
		$(FUZZ_BUILD)/fuzz_%: selftests/fuzz/fuzz_%.c selftests/fuzz/fuzz_import.h \
		$(FUZZ_IMPORT_SRCS) $(CORE_HDRS) $(WL_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_IMPORT_SRCS) $(WL_LIBS)

fuzz-build: $(FUZZ_BINS)

# One TAP line per harness: ok when libFuzzer exits 0 after FUZZ_SECONDS.
check-fuzz: fuzz-build
	@mkdir -p $(RESULTS)
	@tap=$(RESULTS)/fuzz.tap; n=0; rc=0; \
	echo "TAP version 13" > $$tap; \
	echo "1..$(words $(FUZZ_TARGETS))" >> $$tap; \
	for t in $(FUZZ_TARGETS); do \
		n=$$((n + 1)); \
		work=$(FUZZ_BUILD)/run-$$t; \
		rm -rf $$work; mkdir -p $$work/corpus $$work/artifacts; \
		cp selftests/fuzz/corpus/$$t/* $$work/corpus/ 2>/dev/null; \
		case $$t in \
		kineto) cp selftests/core/import/kineto-*.json $$work/corpus/ ;; \
		nsys) cp selftests/core/import/nsys-*.sql $$work/corpus/ ;; \
		accelsim) cp selftests/core/import/accelsim/*.traceg \
			$$work/corpus/ ;; \
		esac; \
		for s in $$work/corpus/*.sql; do \
			[ -f "$$s" ] && sqlite3 "$${s%.sql}.sqlite" < "$$s"; \
		done; \
		dict=; [ -f selftests/fuzz/$$t.dict ] && \
			dict=-dict=selftests/fuzz/$$t.dict; \
		echo "  FUZZ    $$t ($(FUZZ_SECONDS) s)"; \
		if $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
			-max_len=$(FUZZ_MAX_LEN) -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix=$$work/artifacts/ -print_final_stats=1 $$dict \
			$$work/corpus > $$work/log 2>&1; then \
			execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$work/log); \
			echo "ok $$n fuzz_$$t $$execs execs in $(FUZZ_SECONDS) s" >> $$tap; \
		else \
			rc=1; \
			echo "not ok $$n fuzz_$$t crashed, see $$work/log" >> $$tap; \
			echo "    FAIL: fuzz_$$t (see $$work/log)"; \
			tail -n 30 $$work/log | sed 's/^/    | /'; \
		fi; \
	done; exit $$rc

# Seed corpus of fuzz_validator: every example program, assembled, and the
# rule-breaking programs of the vasm corpus (err_*.vasm), unvalidated.
$(FUZZ_BUILD)/vasm2bin: selftests/fuzz/vasm2bin.c userspace/libworkload/vasm.c \
		driver/core/isa.c $(CORE_HDRS) $(WL_HDRS)
	@mkdir -p $(@D)
	$(CC) $(NATIVE_CFLAGS) $(CLI_INC) -O1 -o $@ selftests/fuzz/vasm2bin.c \
		userspace/libworkload/vasm.c driver/core/isa.c

.PHONY: fuzz-corpus
fuzz-corpus: $(FUZZ_BUILD)/vasm2bin
	@for f in examples/vasm/*.vasm; do \
		b=$$(basename $$f .vasm); \
		$(FUZZ_BUILD)/vasm2bin $$f selftests/fuzz/corpus/validator/$$b.bin || exit 1; \
		cp $$f selftests/fuzz/corpus/vasm/$$b.vasm; \
	done; \
	for f in selftests/fuzz/corpus/vasm/err_*.vasm; do \
		b=$$(basename $$f .vasm); \
		$(FUZZ_BUILD)/vasm2bin -n $$f selftests/fuzz/corpus/validator/$$b.bin || exit 1; \
	done
