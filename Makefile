# procgen build. `make` builds bin/procgen, with the CUDA backend when nvcc is
# on PATH (scripts/install-cuda.sh installs it), else the pure-Go build.
GO        ?= go
NVCC      ?= $(shell command -v nvcc 2>/dev/null)
BIN       := bin
KDIR      := internal/gpu/kernels
CU_SRC    := $(wildcard cuda/*.cu)
CU_HDR    := $(wildcard cuda/*.cuh)
FATBINS   := $(patsubst cuda/%.cu,$(KDIR)/%.fatbin,$(CU_SRC))
# Families that accumulate with pg_red_add4 also get a PTX-only variant built
# with -DPG_VECTOR_RED: vector reductions need PTX ISA 8.1, which nvcc 11.8
# does not write, so its .version line is raised and the driver JITs it
# (internal/gpu loads it on sm_90+ with a CUDA >= 12.1 driver, else the fatbin).
VRED_FAMILIES := flame flame_plugins flame3d flame_accum
VRED_PTX  := $(patsubst %,$(KDIR)/%.vred.ptx,$(VRED_FAMILIES))
# SASS for A100 (sm_80, also runs on sm_86/89) and H100 (sm_90), plus
# compute_90 PTX that newer drivers JIT for newer GPUs.
GENCODE   := -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
             -gencode arch=compute_90,code=compute_90
# -lineinfo is left out: nvcc 11.8 segfaults with it on sm_90 for prims.cu.
NVCCFLAGS ?= -O3 -std=c++17
VERSION   := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT    := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
DATE      := $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS   := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)
# Packages with GPU tests; each becomes bin/<name>.test for the GPU machine.
GPU_TEST_PKGS := gpu flame flame/anim lsys lsys/turtle forest forest/fit pga rules rules/golly rules/lifepack

# nvcc compiles one file at a time: the kernel families build in parallel,
# one job per core (KJOBS=1 for a serial build). Only the kernels: the test
# targets stay serial so their output does not interleave.
KJOBS     ?= $(shell nproc 2>/dev/null || echo 2)

ifneq ($(NVCC),)
  BUILD_TAGS := -tags cuda
  BUILD_KIND := CUDA backend (nvcc: $(NVCC))
  KERNELS    := kernels-parallel
else
  BUILD_TAGS :=
  BUILD_KIND := pure-Go build, CPU backend only (no nvcc on PATH; scripts/install-cuda.sh installs it)
  KERNELS    :=
endif

.PHONY: bench-flam3-anim all procgen kernels kernels-parallel test test-cpu test-cuda cross test-foreign gpu-bins gpu-tests bench bench-lsys bench-gpu bench-rules bench-life-cpu bench-life-big bench-life-packed bench-e2e bench-anim bench-devices slurm-test equiv clean

all: procgen

# The Go packages that do not embed the kernels (the standard library, the
# modules, procgen's packages below internal/gpu) compile while nvcc runs:
# on a fresh machine with a cold build cache they take about as long as the
# kernels, and nvcc leaves cores idle as its last families finish.
# -e and 2>/dev/null: the kernels are not built yet, so internal/gpu's
# go:embed pattern matches nothing and go list would say so ("pattern
# kernels/*.fatbin: no matching files found"), which is expected here and not
# a failure: make kernels builds them next.
GO_PREWARM = $(GO) list -e $(BUILD_TAGS) -deps -f '{{.ImportPath}} {{join .Deps " "}}' ./cmd/procgen 2>/dev/null \
             | awk '!/internal\/gpu/ && $$1 != "github.com/procgen-dev/procgen/cmd/procgen" { print $$1 }'

procgen:
	@mkdir -p $(BIN)
ifneq ($(NVCC),)
	@$(GO) build $(BUILD_TAGS) -trimpath $$($(GO_PREWARM)) >/dev/null 2>&1 & \
	  $(MAKE) --no-print-directory -j$(KJOBS) kernels || { wait; exit 1; }; wait
endif
	$(GO) build $(BUILD_TAGS) -trimpath -ldflags "$(LDFLAGS)" -o $(BIN)/procgen ./cmd/procgen
	@echo "built $(BIN)/procgen: $(BUILD_KIND)"

kernels: $(FATBINS) $(VRED_PTX) $(KDIR)/archs.txt

kernels-parallel:
	@$(MAKE) --no-print-directory -j$(KJOBS) kernels

# Each family depends on the headers it includes (scripts/cu-deps.sh), so a
# change to one family's header rebuilds that family only.
.SECONDEXPANSION:
$(KDIR)/%.vred.ptx: cuda/%.cu $$(shell scripts/cu-deps.sh cuda/$$*.cu)
	@test -n "$(NVCC)" || { echo "make kernels: nvcc not found (run scripts/install-cuda.sh)" >&2; exit 1; }
	@mkdir -p $(KDIR)
	$(NVCC) $(NVCCFLAGS) -DPG_VECTOR_RED -ptx -arch=compute_90 -o $@.tmp $<
	sed -E 's/^\.version [0-9]+\.[0-9]+$$/.version 8.1/' $@.tmp > $@ && rm -f $@.tmp
	@grep -q '^\.version 8\.1$$' $@ && grep -q 'red.global.add.v4.f32' $@ || { echo "$@: no PTX 8.1 vector reductions" >&2; rm -f $@; exit 1; }

# The PGA evaluator must round float64 as the CPU evaluator does: no fused multiply-adds.
$(KDIR)/pga.fatbin: NVCCFLAGS += --fmad=false

$(KDIR)/%.fatbin: cuda/%.cu $$(shell scripts/cu-deps.sh cuda/$$*.cu)
	@test -n "$(NVCC)" || { echo "make kernels: nvcc not found (run scripts/install-cuda.sh)" >&2; exit 1; }
	@mkdir -p $(KDIR)
	$(NVCC) $(NVCCFLAGS) --fatbin $(GENCODE) -o $@ $<

# The manifest of embedded architectures, read back from the fatbins
# themselves so `procgen devices` reports what is really there: an arch is
# listed only when every fatbin holds it.
$(KDIR)/archs.txt: $(FATBINS)
	@{ echo "# kernel code embedded by make kernels ($$($(NVCC) --version | tail -n 1))"; \
	   for f in $(FATBINS); do cuobjdump --list-elf --list-ptx $$f \
	   | sed -nE 's/^ELF file.*\.(sm_[0-9]+[a-z]?)\.cubin$$/\1/p; s/^PTX file.*\.sm_([0-9]+[a-z]?)\.ptx$$/compute_\1/p' \
	   | sort -u; done | sort | uniq -c | awk -v n=$(words $(FATBINS)) '$$1 == n { print $$2 }'; } > $@.tmp
	@mv $@.tmp $@
	@cat $@

# make test: vet and every test of the pure-Go build; where nvcc exists, also
# the CUDA build, its vet, and its tests (GPU tests skip without a device,
# which also proves the CUDA binary runs on a machine without a driver).
test: test-cpu cross $(if $(NVCC),test-cuda)

test-cpu:
	@unformatted=$$(gofmt -l cmd internal scripts cuda); if [ -n "$$unformatted" ]; then echo "gofmt -l:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) test -count=1 ./...

# The pure-Go build for other platforms (CGO_ENABLED=0): procgen links and
# every package, tests included, type-checks and vets for each of
# CROSS_TARGETS; nothing runs. (go vet type-checks the test files, which is
# what a test binary's compile would catch, at a fraction of the link time.)
# scripts/test-foreign.sh (make test-foreign) runs the tests under emulators.
CROSS_TARGETS ?= linux/arm64 darwin/arm64 darwin/amd64 windows/amd64
cross:
	@for t in $(CROSS_TARGETS); do \
	  echo "cross $$t: go build ./cmd/procgen, go vet ./..."; \
	  export GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0; \
	  $(GO) build -o /dev/null ./cmd/procgen && $(GO) vet ./... || exit 1; done

# The tests for linux/arm64 under qemu-user and windows/amd64 under wine,
# installed with apt-get where missing; a target whose emulator cannot be
# had is skipped with the reason.
test-foreign:
	scripts/test-foreign.sh

test-cuda: kernels-parallel
	$(GO) vet -tags cuda ./...
	$(GO) build -tags cuda -o /dev/null ./cmd/procgen
	$(GO) test -tags cuda -count=1 -short ./...

# Binaries for the GPU machine (it has no Go toolchain): the CUDA procgen
# and one test binary per package with GPU tests. Copy bin/ over and run them.
gpu-bins: kernels-parallel
	@mkdir -p $(BIN)
	$(GO) build -tags cuda -trimpath -ldflags "$(LDFLAGS)" -o $(BIN)/procgen ./cmd/procgen
	@for p in $(GPU_TEST_PKGS); do \
	  t=$(BIN)/$$(basename $$p).test; \
	  echo "$(GO) test -c -tags cuda -o $$t ./internal/$$p"; \
	  $(GO) test -c -tags cuda -o $$t ./internal/$$p || exit 1; done
	@echo "$(COMMIT)" > $(BIN)/COMMIT

# CPU benchmarks of every package, five runs each; the table is go test's.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./...

# The L-system paper's Table 2 on this machine's CPU, one core, median of 5:
# derivation and interpretation times beside the paper's single-core times.
bench-lsys:
	@mkdir -p bin
	$(GO) test -run '^$$' -bench 'Paper' -count 5 -cpu 1 ./internal/lsys/turtle > bin/bench-lsys.txt
	@awk -f scripts/median.awk bin/bench-lsys.txt | grep -v 'ns/op\|B/op\|allocs/op'

# The rules paper's Tables 1-4 (synthetic rule): the CPU backend on two cores
# here (about 6 minutes), then the table beside the paper's GTX 1080 Ti figures,
# with the GPU columns from bin/rules-bench-h100.txt when present (the output
# of scripts/gpu-rules-run.sh on the GPU machine).
bench-rules:
	@mkdir -p bin
	$(GO) test -run '^$$' -bench 'TableCPU' -cpu 2 -count 5 -benchtime 1x ./internal/rules > bin/rules-bench-cpu2.txt
	@awk -f scripts/rules-table.awk $(wildcard bin/rules-bench-h100.txt) bin/rules-bench-cpu2.txt

# The whole command for Life on one 512x512 board for 100 steps on the CPU
# (JSON in and out) against a plain one-thread C loop (scripts/life-loop.c,
# gcc -O2) in the same run: median wall times of 5 and their ratio
# (scripts/bench-life-cpu.sh; W=, H=, STEPS=, RUNS=).
bench-life-cpu: procgen
	scripts/bench-life-cpu.sh $(BIN)/procgen

# Life on one 16384x16384 board for 1000 steps (the issue's big-board goal):
# the engine on the GPU (whole Run, and the steps' device time) and on every
# core, each reporting s/run, ms/step and stencil-GB/s (8 bytes a cell-step).
bench-life-big: $(KERNELS)
	$(GO) test $(BUILD_TAGS) -run '^$$' -bench 'LifeBigBoard' -benchtime 1x -timeout 60m ./internal/rules

# Life bit-packed (internal/rules/lifepack): the step kernels' device time
# and bandwidth on a 16384x16384 torus, and (on the GPU machine, after
# `make gpu-bins`) the whole command against the CPU.
bench-life-packed: $(KERNELS)
	$(GO) test $(BUILD_TAGS) -run '^$$' -bench 'Packed' -benchtime 50x -count 3 ./internal/rules/lifepack
	scripts/bench-life-packed.sh

# On the GPU machine, after `make gpu-bins` here, with the corpus copied to .gpu/ (see the script)
bench-gpu:
	scripts/gpu-flame-run.sh

# On the GPU machine, after `make gpu-bins` here: every package's GPU tests
# (scripts/gpu-tests.sh; BIN, RUN, LOGS), failing where a test finds no GPU.
gpu-tests:
	scripts/gpu-tests.sh

# On the GPU machine, after `make gpu-bins` here: every job at three sizes,
# whole-command wall time on cpu, cuda and auto (scripts/bench-e2e.sh).
bench-e2e:
	scripts/bench-e2e.sh

# On the GPU machine, after `make gpu-bins` here: `flame animate` over 120
# frames of a flock edge at cuburn's 1080p profile, to PNG and to mp4, beside
# the still renderer's rate (scripts/bench-anim.sh; EDGE=, RUNS=, DEVICE=).
bench-anim:
	scripts/bench-anim.sh

# flam3-animate (Debian's flam3) against `procgen flame animate` on the CPU
# (and the GPU where one is) on the same corpus animation frames, median of 3
# (scripts/bench-flam3-anim.sh).
bench-flam3-anim:
	scripts/bench-flam3-anim.sh

# On a multi-GPU machine, after `make gpu-bins` here: one GPU against all of
# them (scripts/bench-devices.sh): an animation, a batch and one still.
bench-devices:
	scripts/bench-devices.sh

# A one-node Slurm cluster (installs slurm-wlm and munge; root) running job
# arrays of sharded renders against one-shot runs. Not part of make test.
slurm-test:
	bash scripts/slurm-test.sh

# Do two commits write the same files for every shipped input (configs/,
# testdata/, a sample of ../shared's corpora)? Builds procgen at BASE and at
# HEAD (default: the work tree), runs the same commands with each and compares
# every output: one line per command, exit 1 on any difference
# (scripts/equiv-check.sh; ~2 minutes on 2 cores). Not part of make test.
equiv:
	@test -n "$(BASE)" || { echo "usage: make equiv BASE=<commit> [HEAD=<commit>]" >&2; exit 2; }
	scripts/equiv-check.sh $(BASE) $(HEAD)

clean:
	rm -rf $(BIN) $(KDIR)
	$(GO) clean -testcache

# forest fit at the issue's size: the likelihood batch (100 traps x 5,000
# parents x 10,000 candidates) on the CPU and, in a CUDA build with a GPU,
# on the device (go test -bench; BenchmarkEvalCUDA skips without one).
.PHONY: bench-fit
bench-fit:
	$(GO) test $(BUILD_TAGS) -run '^$$' -bench 'BenchmarkEval' -benchtime 3x ./internal/forest/fit/
