# Sinew: the two Quick-start commands (README) and a few conveniences.
#   make demo   set up, build (Release), run the default model, write its results
#   make test   set up, build, run the whole CTest suite (unit + scenario)
BUILD ?= build
# ccache hits across clones: hash paths relative to the checkout.
export CCACHE_BASEDIR := $(CURDIR)
JOBS ?= $(shell nproc)
DEMO_OUT ?= demo-output

.PHONY: all setup configure build demo test test-unit bench bench-fem bench-micro bench-peers verify clean

all: build

setup:
	@bash scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release > $(BUILD).configure.log 2>&1 || (cat $(BUILD).configure.log; exit 1)

build: configure
	@cmake --build $(BUILD) -j $(JOBS) -- --no-print-directory

demo: build
	@$(BUILD)/bin/sinew run --output $(DEMO_OUT)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Fast loop: skip the slower scenario label.
test-unit: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L unit

# The verification report: the whole suite with its physics-verification
# cases recorded, then docs/verification.md from them (also when a case
# fails: the report shows it, and make still fails).
VERIFY_TSV = $(abspath $(BUILD))/verification.tsv
verify: build
	@rm -f $(VERIFY_TSV)
	@cd $(BUILD) && SINEW_VERIFY_OUT=$(VERIFY_TSV) ctest -j $(JOBS) --output-on-failure > $(VERIFY_TSV).log 2>&1; \
	  status=$$?; tail -3 $(VERIFY_TSV).log; \
	  bash $(CURDIR)/scripts/verification-report.sh $(VERIFY_TSV) > $(VERIFY_TSV).md && \
	  mv $(VERIFY_TSV).md $(CURDIR)/docs/verification.md && \
	  echo "wrote docs/verification.md ($$(wc -l < $(VERIFY_TSV)) cases)"; exit $$status

# Every scene benchmark in one table (bench/run.sh); the micro kernels
# (materials, solvers, queries) with Google Benchmark.
bench: build
	@bash bench/run.sh $(BUILD)

# The FEM beams at about 1k, 10k and 100k elements (several minutes; 100k
# hexes need about 6 GB for the factorization it is measured against).
bench-fem: build
	@bash bench/fem-sizes.sh $(BUILD)

bench-micro: build
	@$(BUILD)/bench/sinew_bench

# Peer-engine comparison (bench/peers/README.md): installs the peers'
# Debian packages when run as root, builds Sinew and the peer programs in
# their own folder, runs every engine on every scene and writes the table
# to bench/results/.
PEERS_BUILD ?= build-peers
bench-peers:
	@bash scripts/setup.sh --peers
	@cmake -S . -B $(PEERS_BUILD) -DCMAKE_BUILD_TYPE=Release -DSINEW_PEERS=ON > $(PEERS_BUILD).configure.log 2>&1 \
	  || (cat $(PEERS_BUILD).configure.log; exit 1)
	@$(MAKE) --no-print-directory -C $(PEERS_BUILD)/bench/peers -j $(JOBS)
	@bash bench/peers/run.sh $(PEERS_BUILD) bench/results/peers-$$(date -u +%Y-%m-%d).md

clean:
	@rm -rf $(BUILD) $(BUILD).configure.log $(DEMO_OUT) $(PEERS_BUILD) $(PEERS_BUILD).configure.log
