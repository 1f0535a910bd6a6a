# paw -- build, run and test the benchmarks.
#
#   make            release build of every benchmark (installs missing system packages first)
#   make core       build, then run PAW's core set on this machine into results/core/
#   make blas       build, then run the BLAS sweeps (small orders) into results/blas/
#   make extras     build, then run stream, rayon_overhead, posix_io into results/extras/
#   make gpu        build, then run the GPU tests (cuBLAS GEMM, transfers) into results/gpu/
#   make test       build and run every test (unit tests and mpirun launches) but the long ones
#   make test-long  build and run the long tests: multi-host scenarios, sweeps, repeats
#   make smoke      build, then launch every binary once (np 2, small settings) and check its files
#   make install    copy the benchmarks to $(PREFIX) (default ./bin)
#   make plots      render every .dat under results/ to PNG
#   make lists      print the benchmarks, one `KIND: names` line per list
#   make clean      remove build output and results/
#
# Variables: MPI (openmpi, the default; mpich: Debian's MPICH, built into target/mpich/;
# impi, ompi5, mpich5: Intel MPI 2021.19, Open MPI 5.0.11, MPICH 5.0.2 from their Python
# wheels, installed without root by scripts/mpi-wheel, built into target/<name>/),
# MPIRUN (mpirun, mpiexec, srun ...), NP (tasks for the multi-task tests), MPIFLAGS (extra
# launcher options), PREFIX, RESULTS, BLAS_MAX, IO_FILE_SIZE, GPU_MAX, GPU_BLAS_MAX,
# TESTFLAGS (options for the test binaries, e.g. --nocapture to see the figures tests measure).

MPI ?= openmpi
ifeq ($(MPI),openmpi)
MPIRUN ?= mpirun
BINDIR := target/release
else ifeq ($(MPI),mpich)
# Each MPI builds into its own target directory: mpi-sys does not notice a changed MPICC.
export MPICC := mpicc.mpich
export CARGO_TARGET_DIR := $(CURDIR)/target/mpich
export PAW_TEST_MPIRUN := mpiexec.mpich
MPIRUN ?= mpiexec.mpich
BINDIR := target/mpich/release
else ifeq ($(MPI),impi)
# Intel MPI from its wheel (scripts/mpi-wheel): MPICH's ABI, so built with Debian's MPICH
# headers; its launcher puts Intel's libmpi.so.12 in place of libmpich.so.12.
export MPICC := mpicc.mpich
export CARGO_TARGET_DIR := $(CURDIR)/target/impi
export PAW_TEST_MPIRUN := $(CURDIR)/target/mpi/impi/paw-mpirun
MPIRUN ?= $(PAW_TEST_MPIRUN)
BINDIR := target/impi/release
else ifneq ($(filter $(MPI),ompi5 mpich5),)
# Open MPI 5 or MPICH 5 from its wheel: its own compiler wrapper and library.
WHEEL := $(CURDIR)/target/mpi/$(MPI)
ifeq ($(MPI),ompi5)
export OPAL_PREFIX := $(WHEEL)
endif
export LD_LIBRARY_PATH := $(WHEEL)/lib$(if $(LD_LIBRARY_PATH),:$(LD_LIBRARY_PATH))
export MPICC := $(WHEEL)/bin/mpicc
export CARGO_TARGET_DIR := $(CURDIR)/target/$(MPI)
export PAW_TEST_MPIRUN := $(WHEEL)/paw-mpirun
MPIRUN ?= $(PAW_TEST_MPIRUN)
BINDIR := target/$(MPI)/release
else
$(error MPI=$(MPI): accepted values are openmpi, mpich, impi, ompi5 and mpich5)
endif
NP ?= 2
MPIFLAGS ?=
TESTFLAGS ?=
PREFIX ?= $(CURDIR)/bin
RESULTS ?= results
CARGO ?= cargo
CARGOFLAGS ?= --locked --release

# Every benchmark binary, as users launch it, in lists by kind. The MPI benchmarks are the
# files of crates/mpi/paw-mpi/src/bin (NAME.rs or NAME/main.rs, as Cargo finds them): a new
# one joins P2P_BINS or COL_BINS by its name. `make -s lists` prints the lists (tests read it).
bins_in = $(sort $(basename $(notdir $(wildcard $(1)/src/bin/*.rs))) \
	$(notdir $(patsubst %/main.rs,%,$(wildcard $(1)/src/bin/*/main.rs))))
MPI_FAMILY := $(call bins_in,crates/mpi/paw-mpi)
CORE_BINS := latency p2p_multitask blas_dgemm_single stream
P2P_BINS := $(filter-out $(CORE_BINS),$(filter p2p_%,$(MPI_FAMILY)))
# MPI-4 persistent collectives: they refuse to run on an MPI-3 library (Open MPI 4.1).
MPI4_BINS := col_pardc col_pbct
COL_BINS := $(filter-out $(MPI4_BINS),$(filter col_%,$(MPI_FAMILY)))
BLAS_BINS := dgemm sgemm dgemv sgemv
EXTRA_BINS := rayon_overhead posix_io
# The GPU benchmarks: the files of crates/gpu/benchmarks/src/bin.
GPU_BINS := $(call bins_in,crates/gpu/benchmarks)
SUITE_BINS := IMB-MPI1 IMB-NBC IMB-MPI4 IMB-RMA IMB-P2P IMB-MT IMB-EXT IMB-IO b_eff b_eff_io com laten rma allred globalop
TOOL_BINS := paw-report
LISTS := CORE P2P COL MPI4 BLAS EXTRA GPU SUITE TOOL
BINS := $(foreach l,$(LISTS),$($(l)_BINS))

# Small defaults for make blas / make extras (seconds to a minute here); override on the
# command line, e.g. make blas BLAS_MAX=10000.
BLAS_MAX ?= 2048
IO_FILE_SIZE ?= 268435456
GPU_MAX ?= 67108864
GPU_BLAS_MAX ?= 4096

.PHONY: all build deps core blas extras gpu install smoke test test-long plots clean lists

all: build

deps:
	@scripts/install-deps $(MPI)

build: deps
	$(CARGO) build $(CARGOFLAGS) --workspace

core: build
	MPIRUN="$(MPIRUN)" NP="$(NP)" MPIFLAGS="$(MPIFLAGS)" RESULTS="$(RESULTS)/core" \
		BINDIR="$(BINDIR)" scripts/run-core

blas: build
	mkdir -p "$(RESULTS)/blas"
	for b in $(BLAS_BINS); do \
		PAW_OUTPUT_DIR="$(RESULTS)/blas" MAX_BLAS_SIZE=$(BLAS_MAX) "$(BINDIR)/$$b" || exit 1; \
	done

extras: build
	mkdir -p "$(RESULTS)/extras"
	PAW_OUTPUT_DIR="$(RESULTS)/extras" $(BINDIR)/stream
	PAW_OUTPUT_DIR="$(RESULTS)/extras" $(BINDIR)/rayon_overhead
	@# Open MPI started by root runs nothing unless told otherwise; the file check below
	@# catches a launcher that ran nothing.
	if [ "$$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi; \
	PAW_OUTPUT_DIR="$(RESULTS)/extras" IO_FILE_SIZE=$(IO_FILE_SIZE) \
		$(MPIRUN) -n $(NP) $(MPIFLAGS) $(BINDIR)/posix_io
	@ls "$(RESULTS)"/extras/posix_io_read-np_*.dat >/dev/null

# Without a GPU the first binary says what is missing (one line) and make stops.
gpu: build
	mkdir -p "$(RESULTS)/gpu"
	for b in $(GPU_BINS); do \
		PAW_OUTPUT_DIR="$(RESULTS)/gpu" MAX_GPU_SIZE=$(GPU_MAX) MAX_GPU_BLAS_SIZE=$(GPU_BLAS_MAX) \
			"$(BINDIR)/$$b" || exit $$?; \
	done

install: build
	mkdir -p "$(PREFIX)"
	for b in $(BINS); do install -m 0755 "$(BINDIR)/$$b" "$(PREFIX)/$$b"; done
	@echo "installed $(BINS) into $(PREFIX)"

# Every binary of the lists above launched once at np 2 with small settings, its files
# checked (the every_binary test): a quick look at another MPI library (make smoke MPI=ompi5).
smoke: build
	$(CARGO) test $(CARGOFLAGS) -p paw-test --test every_binary -- $(TESTFLAGS)

# The ReFrame library's test runs ReFrame from its own virtual environment (target/reframe-venv).
test: build
	scripts/reframe-venv >/dev/null
	$(CARGO) test $(CARGOFLAGS) --workspace -- $(TESTFLAGS)

# The tests marked #[ignore = "long: make test-long"] (7 s to 2 min each here): make test checks
# what each checks in one quick case; these take every case, host count or repeat.
test-long: build
	$(CARGO) test $(CARGOFLAGS) --workspace -- --ignored $(TESTFLAGS)

plots:
	@files=$$(find "$(RESULTS)" -name '*.dat' 2>/dev/null | sort); \
	if [ -z "$$files" ]; then echo "make plots: no .dat files under $(RESULTS)/ (run make core first)"; \
	else scripts/plot-dat $$files; fi

lists:
	@$(foreach l,$(LISTS),echo '$(l): $($(l)_BINS)';)

clean:
	$(CARGO) clean
	rm -rf "$(RESULTS)"
