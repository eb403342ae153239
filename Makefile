# FX Editor — the two commands of the README (make run, make test) and their helpers.
# Every target first installs what is missing (Debian packages) and builds.

BUILD      ?= build
SAN_BUILD  ?= build-sanitize
FUZZ_BUILD ?= build-fuzz
EXAMPLE    ?= data/examples/resnet_block.py
MESON_TEST_ARGS ?=

# Without a display, the UI tests (and the editor under `make run` in CI) get a virtual one.
ifeq ($(strip $(DISPLAY)$(WAYLAND_DISPLAY)),)
  WITH_DISPLAY = xvfb-run -a -s "-screen 0 1280x1024x24"
else
  WITH_DISPLAY =
endif

.PHONY: all deps build run test bench sanitize fuzz clean

all: build

deps:
	@sh .ci/deps.sh build test

build: deps
	@[ -f $(BUILD)/build.ninja ] || meson setup $(BUILD)
	meson compile -C $(BUILD)

run: build
	GSETTINGS_SCHEMA_DIR=$(CURDIR)/$(BUILD)/data $(BUILD)/app/fx-editor $(EXAMPLE)

test: build
	@status=0; \
	$(WITH_DISPLAY) meson test -C $(BUILD) --print-errorlogs $(MESON_TEST_ARGS) || status=$$?; \
	python3 .ci/test-summary.py $(BUILD)/meson-logs/testlog.json; \
	exit $$status

bench: build
	@sh .ci/deps.sh bench
	$(WITH_DISPLAY) meson test -C $(BUILD) --benchmark --verbose --timeout-multiplier 4

sanitize: deps
	@[ -f $(SAN_BUILD)/build.ninja ] || meson setup $(SAN_BUILD) -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
	meson compile -C $(SAN_BUILD)
	@status=0; \
	$(WITH_DISPLAY) meson test -C $(SAN_BUILD) --print-errorlogs --timeout-multiplier 4 $(MESON_TEST_ARGS) || status=$$?; \
	python3 .ci/test-summary.py $(SAN_BUILD)/meson-logs/testlog.json; \
	exit $$status

fuzz: deps
	@sh .ci/deps.sh fuzz
	@if [ -f tests/fuzz/meson.build ]; then \
	  [ -f $(FUZZ_BUILD)/build.ninja ] || CC=clang meson setup $(FUZZ_BUILD) -Dfuzzing=true -Db_sanitize=address -Db_lundef=false; \
	  meson compile -C $(FUZZ_BUILD) && meson test -C $(FUZZ_BUILD) --suite fuzz --print-errorlogs; \
	else \
	  echo "No fuzz targets yet: they arrive with the parsers (tests/fuzz/)."; \
	fi

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD)
