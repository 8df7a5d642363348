# Two commands set up a fresh machine: `make book` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JB_FLAGS := -n -W --keep-going
# Python caches bytecode here even where the environment says not to (PYTHONDONTWRITEBYTECODE=1,
# as on some CI machines; an empty value turns it off): otherwise every test process, and every
# interpreter the tests start, compiles the package, the tests (as pytest rewrites them) and
# hypothesis again, a sixth of the unit suite's time. The caches are in .gitignore.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: book exercises student assignments grade test-assignments pdf test venv chromium test-unit test-deep test-notebooks test-notebooks-native test-notebooks-alt test-browser test-browser-latency test-browser-pages serve clean outputs bench venv-lowest test-lowest test-lowest-unit book-lowest test-lowest-notebooks test-wheel

# numba compiles the package's two loops into its on-disk cache (perceptron_core/__pycache__) when
# an environment is set up, as pip compiles a package's bytecode when it installs it: every test
# process, chapter and book build after that loads them instead of compiling them again.
export COMPILE_LOOPS := from perceptron_core import _compiled; \
  print("numba loops compiled:", _compiled.perceptron_epochs.uses_numba and _compiled.margin_epochs.uses_numba)

# The stamp makes the venv rebuild when the pins change, and only then.
$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -r requirements.txt
	$(BIN)/python -m pip install --no-deps -e .
	$(BIN)/python -c "$$COMPILE_LOOPS"
	touch $(STAMP)

venv: $(STAMP)

# The second environment: the LOWEST versions pyproject.toml accepts for every dependency of the
# package and of its extras (numpy, scipy, matplotlib, ipywidgets, Pillow, scikit-learn, numba),
# and every other package (the book's build, the test tools) at its pin in requirements.txt.
# tests/tools/lowest_versions.py writes that list. Built anew whenever the floors or the pins
# change, so that it holds exactly what the list says; `pip check` then proves it consistent.
LOWEST       := .venv-lowest
LOWEST_BIN   := $(LOWEST)/bin
# Its own numba cache: numba keeps one compiled loop per file for one numba version, so two
# environments sharing perceptron_core/__pycache__ would each overwrite the other's and compile
# again (the Jupyter kernels of the browser tests, nine at once, after the lowest tests).
LOWEST_ENV   := NUMBA_CACHE_DIR=$(CURDIR)/$(LOWEST)/numba-cache
LOWEST_STAMP := $(LOWEST)/.installed
LOWEST_BUILD := _build/lowest

$(LOWEST_STAMP): requirements.txt pyproject.toml tests/tools/lowest_versions.py
	rm -rf $(LOWEST)
	$(PYTHON) -m venv $(LOWEST)
	$(LOWEST_BIN)/python -m pip install --upgrade pip
	$(PYTHON) tests/tools/lowest_versions.py --requirements requirements.txt > $(LOWEST)/requirements-lowest.txt
	$(LOWEST_BIN)/python -m pip install -r $(LOWEST)/requirements-lowest.txt
	$(LOWEST_BIN)/python -m pip install --no-deps -e .
	$(LOWEST_ENV) $(LOWEST_BIN)/python -c "$$COMPILE_LOOPS"
	$(LOWEST_BIN)/python -m pip check
	rm -rf $(LOWEST_BUILD)  # its execution cache holds runs made with the environment replaced
	touch $(LOWEST_STAMP)

venv-lowest: $(LOWEST_STAMP)

# Debian's Chromium drives the browser tests and prints the PDFs: the one thing not from pip.
# Installed here when missing and possible (root, or sudo without a password); otherwise the
# target stops at once with the command to run, before any test has started.
chromium:
	@if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then exit 0; fi; \
	if [ "$$(id -u)" -eq 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo"; else \
	  echo "Chromium is missing, and installing it needs root. Run: sudo apt-get install -y chromium" >&2; \
	  exit 1; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then \
	  echo "Chromium is missing, and this is not a Debian-like system: install Chromium as /usr/bin/chromium" >&2; \
	  exit 1; fi; \
	echo "== Installing Debian's Chromium"; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y chromium

# jupyter-cache knows a chapter's run by the notebook's code alone, and Sphinx a page by its
# source: after a change to the package (or to the glue the chapters import, or to the venv)
# both would keep the runs, numbers and pictures of the package as it was. So both editions'
# caches go whenever any of those is newer than they are (see LOWEST_SOURCES for the lowest
# build); otherwise the builds are incremental.
PACKAGE_FILES := $(shell find perceptron_core -type f -not -path '*/__pycache__/*') book/glue_numbers.py
BOOK_SOURCES  := _build/.sources
$(BOOK_SOURCES): $(STAMP) $(PACKAGE_FILES)
	rm -rf _build/.jupyter_cache _build/.doctrees _build/jupyter_execute \
	  _build/exercises/_build/.jupyter_cache _build/exercises/_build/.doctrees \
	  _build/exercises/_build/jupyter_execute
	mkdir -p _build && touch $@

book: $(BOOK_SOURCES)
	$(BIN)/jupyter-book build . $(JB_FLAGS)
	@test -f _build/html/index.html && echo "Book built: _build/html/index.html"

# The student edition: the book without the exercises' solutions, whose .ipynb downloads have
# none either, and the chapters' notebooks without solutions in one zip to hand out: every
# chapter's, or those CHAPTERS names (`make exercises CHAPTERS="margin offset"`).
CHAPTERS ?=
exercises: $(BOOK_SOURCES)
	PERCEPTRON_HIDE_SOLUTIONS=1 PERCEPTRON_CHAPTERS="$(CHAPTERS)" \
	  $(BIN)/jupyter-book build . $(JB_FLAGS) --path-output _build/exercises
	cp _build/exercises/_build/html/student-notebooks.zip _build/exercises/student-notebooks.zip
	@echo "Book without solutions: _build/exercises/_build/html/index.html"
	@echo "Student notebooks: _build/exercises/student-notebooks.zip ($$(du -k _build/exercises/student-notebooks.zip | cut -f1) KB):" \
	  $$($(BIN)/python -c "import sys, zipfile; print(*(n.split('/')[-1] for n in zipfile.ZipFile(sys.argv[1]).namelist()))" \
	  _build/exercises/student-notebooks.zip)

student: exercises

# Autograded assignments (otter-grader): every chapter's exercises, or those of the chapters
# CHAPTERS names (`make assignments CHAPTERS="margin offset"`), as an otter assignment in
# _build/assignments/<chapter>/: student/ to hand out, autograder/ with the solution notebook and
# the autograder zip. The names are checked before the book builds; the masters take the built
# book's numbers (book/_tools/assignments.py). setuptools' build/ goes first, as in test-wheel.
assignments: $(STAMP)
	@$(BIN)/python book/_tools/assignments.py --chapters "$(CHAPTERS)" --validate
	$(MAKE) --no-print-directory book
	rm -rf build
	$(BIN)/python book/_tools/assignments.py --chapters "$(CHAPTERS)" --out _build/assignments

# Grading (book/_tools/grading.py): every file of the folder SUBMISSIONS graded by otter's own
# runner (`otter run`) with the autograder `make assignments CHAPTERS=<chapter>` built for CHAPTER,
# JOBS at a time (default: one per core), each within TIMEOUT seconds (default 300, or
# 12 × CHECK_TIME_LIMIT + 60 when that is more); the gradebook, one row a
# student and one column a question, goes to GRADEBOOK (default _build/grades/<chapter>.csv).
# CHECK_TIME_LIMIT: seconds each call of a student's function may take in the tests (default 5).
#   make grade SUBMISSIONS=hand-ins/ CHAPTER=margin
SUBMISSIONS ?=
CHAPTER     ?=
JOBS        ?=
TIMEOUT     ?=
GRADEBOOK   ?=
grade: $(STAMP)
	@if [ -z "$(SUBMISSIONS)" ] || [ -z "$(CHAPTER)" ]; then \
	  echo "Usage: make grade SUBMISSIONS=<folder> CHAPTER=<chapter> [JOBS=n] [TIMEOUT=s] [GRADEBOOK=file.csv] [CHECK_TIME_LIMIT=s]" >&2; \
	  exit 2; fi
	$(BIN)/python book/_tools/grading.py --chapter "$(CHAPTER)" --submissions "$(SUBMISSIONS)" \
	  $(if $(TIMEOUT),--timeout $(TIMEOUT)) $(if $(JOBS),--jobs $(JOBS)) $(if $(GRADEBOOK),--gradebook "$(GRADEBOOK)") \
	  $(if $(CHECK_TIME_LIMIT),--check-time-limit $(CHECK_TIME_LIMIT))

# Handouts: every page and the whole book (book.pdf) printed to _build/pdf with headless Chromium;
# the instructor guide is not a handout, and goes to _build/pdf/instructor/.
pdf: chromium book
	$(BIN)/python book/_tools/print_pdf.py _build/html _build/pdf
	@echo "Handouts: _build/pdf/ (the instructor guide apart, in _build/pdf/instructor/)"

# pytest-xdist: one process per core.
XDIST := -n auto

# The unit tests: neither a browser nor a kernel. nbval's and anyio's pytest plugins are for the
# notebook runs; loaded, they import jupyter_client, nbformat and jsonschema in every process
# (2.5 s each, most of it rfc3987_syntax building a grammar), and pytest rewrites anyio's asserts.
UNIT := -m "not browser and not notebooks" -p no:nbval -p no:anyio --dist worksteal

# The property tests run hypothesis's "ci" profile: derandomized, so every run tries the same
# examples and a failure is a failure of the change at hand (see tests/conftest.py). The tests
# marked `notebooks` (a kernel, nbval, a build's cache) run in test-notebooks-native instead.
test-unit: $(STAMP)
	$(BIN)/python -m pytest tests $(UNIT) $(XDIST) --hypothesis-profile ci

# The property tests only, with random examples and DEEP_FACTOR times as many of them: a search
# for bugs, not a gate. A failure prints the falsifying example; fix it and keep it as an @example.
DEEP_FACTOR ?= 10
test-deep: $(STAMP)
	PERCEPTRON_DEEP_FACTOR=$(DEEP_FACTOR) $(BIN)/python -m pytest tests -m "hypothesis and not browser" \
	  $(XDIST) --hypothesis-profile deep

# Every chapter executes, and every number it glues matches tests/notebook_numbers/ (floats to a
# relative 1e-6). Twice: as the machine is, then under another OpenBLAS kernel with numpy's SIMD
# paths off, so that a result that hinges on a last bit fails here before a reader's machine finds it.
# As the machine is, the runs checked are the book build's own (kept in its execution cache), so
# the numbers checked are the numbers on the published pages and nothing runs twice. Under the
# second set-up nbval runs every chapter (`pytest --nbval-lax`), and book/_tools/nbval_glue.py adds
# a "glued numbers" test after each chapter's cells.
test-notebooks: test-notebooks-native test-notebooks-alt

test-notebooks-native: book
	@echo "== Notebook checks, numeric set-up 1: as the machine is (the book build's runs)"
	PERCEPTRON_NOTEBOOKS=1 PERCEPTRON_NOTEBOOKS_FROM_BUILD=_build/.jupyter_cache \
	  $(BIN)/python -m pytest tests -m notebooks -q

test-notebooks-alt: $(STAMP)
	@$(BIN)/python book/_tools/numeric_setups.py demo
	@vars=$$($(BIN)/python book/_tools/numeric_setups.py env) || exit 1; \
	  echo "== Every chapter under nbval, numeric set-up 2: $$vars"; \
	  env $$vars PYTHONPATH=book/_tools $(BIN)/python -m pytest --nbval-lax --nbval-current-env \
	    -p nbval_glue $(XDIST) --dist loadfile -q book/

# Every chapter's assignment graded by otter as `make grade` grades (tests/book/test_grading.py):
# the solution gets full marks, the student notebook nothing, one wrong answer costs its question
# only, code that raises is graded, an endless loop is stopped at its time limit, a file that is
# not a notebook gets its row; and the student notebook holds no solution and no hidden test.
# PERCEPTRON_GRADING=1 runs them (test-notebooks-native selects `-m notebooks` too).
test-assignments: assignments
	PERCEPTRON_GRADING=1 $(BIN)/python -m pytest tests/book/test_grading.py -m notebooks -q $(XDIST)

# The lowest versions pyproject.toml accepts (see venv-lowest): the non-browser tests, then the
# book built with them (into _build/lowest, same flags), then every chapter's glued numbers
# checked against tests/notebook_numbers/ from that build's own runs, as test-notebooks-native
# does for the pinned versions: the chapters run once, in the build, not again under nbval.
# The tests marked `notebooks` run after the build, as in test-notebooks-native.
# PERCEPTRON_EXPECT_FLOORS makes tests/packaging/test_packaging.py check that this environment,
# and the Jupyter kernel the book build starts in it, hold exactly the floors.
test-lowest: test-lowest-unit test-lowest-notebooks

test-lowest-unit: $(LOWEST_STAMP)
	@echo "== Non-browser tests on the lowest versions: $$($(PYTHON) tests/tools/lowest_versions.py | tr '\n' ' ')"
	$(LOWEST_ENV) PERCEPTRON_EXPECT_FLOORS=1 $(LOWEST_BIN)/python -m pytest tests $(UNIT) $(XDIST) --hypothesis-profile ci

# jupyter-cache knows a chapter's run by the notebook's code alone (and Sphinx a page by its
# source): a run made before the package changed would be taken for a run of the package as it
# is. So the lowest build starts afresh whenever the package (or the glue the chapters import)
# is newer than it; otherwise it is incremental, like `make book`.
LOWEST_SOURCES := $(LOWEST_BUILD)/.sources
$(LOWEST_SOURCES): $(LOWEST_STAMP) $(PACKAGE_FILES)
	rm -rf $(LOWEST_BUILD)/_build
	mkdir -p $(LOWEST_BUILD) && touch $@

book-lowest: $(LOWEST_SOURCES)
	$(LOWEST_ENV) $(LOWEST_BIN)/jupyter-book build . $(JB_FLAGS) --path-output $(LOWEST_BUILD)
	@test -f $(LOWEST_BUILD)/_build/html/index.html && echo "Book built on the lowest versions: $(LOWEST_BUILD)/_build/html/index.html"

test-lowest-notebooks: book-lowest
	@echo "== Notebook checks on the lowest versions (the lowest book build's runs)"
	$(LOWEST_ENV) PERCEPTRON_EXPECT_FLOORS=1 PERCEPTRON_NOTEBOOKS=1 \
	  PERCEPTRON_NOTEBOOKS_FROM_BUILD=$(LOWEST_BUILD)/_build/.jupyter_cache \
	  $(LOWEST_BIN)/python -m pytest tests -m notebooks -q

# What a student installs and opens: the wheel, built here (setuptools' build/ removed first, so
# that no module deleted from the source survives in it), checked for build code and its data,
# installed with its book extra into a new venv at the pins of requirements.txt; and every
# chapter's reader notebook, as the book build wrote it for downloads and launch buttons (plain
# Markdown, its install cell first), copied out of the repository and run there
# (tests/tools/run_chapters_outside.py): no myst-nb, no book/, nothing of the repository on the
# kernel's sys.path.
WHEEL_DIR  := _build/dist
WHEEL_VENV := _build/wheel-venv

test-wheel: book
	rm -rf build $(WHEEL_DIR) $(WHEEL_VENV)
	$(BIN)/python -m pip wheel --no-deps -q -w $(WHEEL_DIR) .
	$(BIN)/python tests/tools/check_wheel.py $(WHEEL_DIR)/perceptron_core-*.whl
	$(PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/python -m pip install -q -c requirements.txt \
	  "$$(ls $(WHEEL_DIR)/perceptron_core-*.whl)[book]" ipykernel
	$(WHEEL_VENV)/bin/python -m pip check
	$(BIN)/python tests/tools/run_chapters_outside.py --python $(WHEEL_VENV)/bin/python \
	  --readers _build/html/_notebooks

# The live-kernel tests time key press to new picture, so they run with nothing else beside them;
# then the other browser tests, one process per core (the extra builds and the PDFs that several
# tests read are made once, by whichever process comes first: see once_per_run in tests/conftest.py).
test-browser: test-browser-latency test-browser-pages

test-browser-latency: chromium book
	$(BIN)/python -m pytest tests -m "browser and latency" -rP

test-browser-pages: chromium book
	$(BIN)/python -m pytest tests -m "browser and not latency" -rP $(XDIST)

# The parts of `make test`, in order, each timed; Chromium first, so that a machine without it
# stops before any test runs. The table of times is printed at the end, or where a part failed.
TEST_PARTS := chromium venv test-unit book test-notebooks-native test-assignments \
  test-notebooks-alt venv-lowest test-lowest test-wheel test-browser-latency test-browser-pages
TIMES := _build/test-times.txt

test:
	@mkdir -p _build; : > $(TIMES); status=0; \
	for part in $(TEST_PARTS); do \
	  start=$$(date +%s); \
	  $(MAKE) --no-print-directory $$part || status=$$?; \
	  printf '%-24s %5d s%s\n' "$$part" "$$(( $$(date +%s) - start ))" \
	    "$$( [ $$status -eq 0 ] || echo '  FAILED')" >> $(TIMES); \
	  [ $$status -eq 0 ] || break; \
	done; \
	echo "== make test, part by part (wall time):"; cat $(TIMES); \
	awk '{ s += $$2 } END { printf "%-24s %5d s\n", "total", s }' $(TIMES); \
	exit $$status

# Re-run every notebook, store its glued numbers in tests/notebook_numbers/ (review the diff),
# and strip every output from the notebooks.
outputs: $(STAMP)
	$(BIN)/python book/_tools/notebook_numbers.py refresh

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

serve: book
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory _build/html 8000

clean:
	rm -rf _build .pytest_cache .hypothesis
	find . -name __pycache__ -not -path "./$(VENV)/*" -prune -exec rm -rf {} +
