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

.PHONY: book exercises student assignments grade test-assignments pdf test venv chromium test-unit test-deep test-notebooks test-numeric test-lowest test-browser test-browser-latency test-browser-pages serve clean outputs bench

# numba compiles the package's two loops into its on-disk cache (perceptron_core/__pycache__) when
# an environment is set up, as pip compiles a package's bytecode when it installs it: every test
# process, chapter and book build after that loads them instead of compiling them again. numba
# compiles a loop at its first call, and a run calls it only once it is long (_compiled.RUN_STEPS):
# hence a long run of each, on data that no few epochs separate.
export COMPILE_LOOPS := import warnings, numpy as np, perceptron_core as pc; \
  from perceptron_core import _compiled; warnings.simplefilter("ignore"); \
  X = np.random.default_rng(0).normal(size=(2000, 60)); y = np.where(X[:, 0] > 0, 1, -1); \
  pc.perceptron(X, np.roll(y, 1), max_epochs=2); pc.margin_perceptron(X, y, 0.01, max_epochs=2); \
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
# caches go whenever any of those is newer than they are; otherwise the builds are incremental.
PACKAGE_FILES := $(shell find perceptron_core -type f -not -path '*/__pycache__/*') book/glue_numbers.py
BOOK_SOURCES  := _build/.sources
$(BOOK_SOURCES): $(STAMP) $(PACKAGE_FILES)
	rm -rf _build/.jupyter_cache _build/.doctrees _build/jupyter_execute \
	  _build/exercises/_build/.jupyter_cache _build/exercises/_build/.doctrees \
	  _build/exercises/_build/jupyter_execute
	mkdir -p _build && touch $@

# Every chapter run into the jupyter-cache folder $(1) (and its project), one per core, by
# jupyter-cache's own local-parallel executor: each in its own folder (book/, where it finds
# glue_numbers), with the static sliders the book shows, as myst-nb would run it. The book build
# then finds every run in its cache (myst-nb runs there only one that failed, and reports it).
# $(2): the folder of the jcache to use (its Python's kernels run the chapters), .venv's by default.
NOTEBOOKS := $(wildcard book/*.ipynb)
run_chapters = mkdir -p $(1) && $(if $(2),$(2),$(BIN))/jcache notebook -p $(1) add $(NOTEBOOKS) >/dev/null && \
  PERCEPTRON_STATIC_WIDGETS=1 $(if $(2),$(2),$(BIN))/jcache project -p $(1) execute \
  --executor local-parallel --timeout 300 --verbosity WARNING

# The package's wheel, which the book carries (its site's _static/, the student zip, every
# assignment's student/ folder) and the reader notebooks' first cell installs: built with
# setuptools' build/ removed first, so that no module deleted from the source survives in it,
# and checked for build code and its data (tests/tools/check_wheel.py). The book build finds it
# through PERCEPTRON_WHEEL (book/_tools/sphinx_extension.py), and so do the tests' own builds.
PACKAGE_VERSION := $(shell sed -n 's/^version = "\(.*\)"$$/\1/p' pyproject.toml)
WHEEL_DIR       := _build/dist
WHEEL           := $(WHEEL_DIR)/perceptron_core-$(PACKAGE_VERSION)-py3-none-any.whl
export PERCEPTRON_WHEEL := $(CURDIR)/$(WHEEL)
$(WHEEL): pyproject.toml $(filter perceptron_core/%,$(PACKAGE_FILES)) | $(STAMP)
	rm -rf build $(WHEEL_DIR)
	$(BIN)/python -m pip wheel --no-deps -q -w $(WHEEL_DIR) .
	$(BIN)/python tests/tools/check_wheel.py $@

# The build is a file target: every later part of `make test` asks for it, and it is made again
# only when a source of the book (or the package, through BOOK_SOURCES) is newer than it.
BOOK_INPUTS := $(shell find book -type f -not -path '*/__pycache__/*' -not -path '*/.ipynb_checkpoints/*' \
  -not -path '*/node_modules/*') _config.yml _toc.yml
BOOK_HTML   := _build/html/index.html
# MathJax 4, which the book serves from its own _static/mathjax: from npm, at the versions of
# book/_tools/mathjax/package-lock.json (book/_tools/sphinx_extension.py copies what pages load).
MATHJAX := book/_tools/mathjax/node_modules/.package-lock.json
$(MATHJAX): book/_tools/mathjax/package-lock.json
	npm ci --prefix book/_tools/mathjax --no-audit --no-fund
$(BOOK_HTML): $(BOOK_SOURCES) $(BOOK_INPUTS) $(WHEEL) $(MATHJAX)
	$(call run_chapters,_build/.jupyter_cache)
	$(BIN)/jupyter-book build . $(JB_FLAGS)
	touch $@

book: $(BOOK_HTML)
	@echo "Book built: _build/html/index.html"

# The student edition: the book without the exercises' solutions and without the instructor
# guide (its table of contents is _toc.yml without the guide's line, given to
# `jupyter-book build --toc`), whose .ipynb downloads have no solutions either, and the chapters'
# notebooks without solutions in one zip to hand out: every chapter's, or those CHAPTERS names
# (`make exercises CHAPTERS="margin offset"`).
CHAPTERS    ?=
STUDENT_TOC := _build/student_toc.yml
$(STUDENT_TOC): _toc.yml
	mkdir -p $(@D) && grep -v "file: book/instructor_guide$$" _toc.yml > $@

exercises: $(BOOK_SOURCES) $(STUDENT_TOC) $(WHEEL) $(MATHJAX)
	$(call run_chapters,_build/exercises/_build/.jupyter_cache)
	PERCEPTRON_HIDE_SOLUTIONS=1 PERCEPTRON_CHAPTERS="$(CHAPTERS)" \
	  $(BIN)/jupyter-book build . $(JB_FLAGS) --toc $(STUDENT_TOC) --path-output _build/exercises
	cp _build/exercises/_build/html/student-notebooks.zip _build/exercises/student-notebooks.zip
	@echo "Book without solutions: _build/exercises/_build/html/index.html"
	@echo "Student notebooks: _build/exercises/student-notebooks.zip ($$(du -k _build/exercises/student-notebooks.zip | cut -f1) KB):" \
	  $$($(BIN)/python -c "import sys, zipfile; print(*(n.split('/')[-1] for n in zipfile.ZipFile(sys.argv[1]).namelist()))" \
	  _build/exercises/student-notebooks.zip)

student: exercises

# Autograded assignments (otter-grader): every chapter's exercises, or those of the chapters
# CHAPTERS names (`make assignments CHAPTERS="margin offset"`), as an otter assignment in
# _build/assignments/<chapter>/: student/ to hand out, autograder/ with the solution notebook and
# the autograder zip, each with the package's wheel. The names are checked before the book
# builds; the masters take the built book's numbers (book/_tools/assignments.py).
assignments: $(STAMP) $(WHEEL)
	@$(BIN)/python book/_tools/assignments.py --chapters "$(CHAPTERS)" --validate
	$(MAKE) --no-print-directory book
	$(BIN)/python book/_tools/assignments.py --chapters "$(CHAPTERS)" --out _build/assignments --wheel $(WHEEL)

# Grading (book/_tools/grading.py): every hand-in in the folder SUBMISSIONS (a notebook or a folder
# a student; Gradescope's and Canvas's downloads as they come) graded by otter's own runner with
# the autograder `make assignments CHAPTERS=<chapter>` built for CHAPTER, JOBS at a time (default:
# one per core), each cell within 6 × CHECK_TIME_LIMIT seconds and each notebook within TIMEOUT
# seconds (default 300, or 12 × CHECK_TIME_LIMIT + 60 when that is more); the gradebook, one row
# a student, one column a question, a status (why a hand-in was not graded: its cells left empty)
# and the reason for every lost point, goes to GRADEBOOK (default _build/grades/<chapter>.csv),
# otter's output for regrades beside it (_build/grades/<chapter>/<student>/).
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
pdf: chromium $(BOOK_HTML)
	$(BIN)/python book/_tools/print_pdf.py _build/html _build/pdf
	@echo "Handouts: _build/pdf/ (the instructor guide apart, in _build/pdf/instructor/)"

# pytest-xdist: one process per core.
XDIST := -n auto

# The unit tests: neither a browser nor a kernel. anyio's pytest plugin (from Jupyter's server)
# is not needed there, and pytest would rewrite its asserts in every process.
UNIT := -m "not browser and not notebooks" -p no:anyio --dist worksteal

# The property tests run hypothesis's "ci" profile: derandomized, so every run tries the same
# examples and a failure is a failure of the change at hand (see tests/conftest.py). The tests
# marked `notebooks` (a kernel, or the book build's output) run in test-notebooks instead.
test-unit: $(STAMP)
	$(BIN)/python -m pytest tests $(UNIT) $(XDIST) --hypothesis-profile ci

# The property tests only, with random examples and DEEP_FACTOR times as many of them: a search
# for bugs, not a gate. A failure prints the falsifying example; fix it and keep it as an @example.
DEEP_FACTOR ?= 10
test-deep: $(STAMP)
	PERCEPTRON_DEEP_FACTOR=$(DEEP_FACTOR) $(BIN)/python -m pytest tests -m "hypothesis and not browser" \
	  $(XDIST) --hypothesis-profile deep

# What the book build made, read back: every glued "at most"/"at least" true as the page prints
# it, the reader notebooks like their pages, and the tests that start a kernel.
test-notebooks: $(BOOK_HTML)
	$(BIN)/python -m pytest tests -m notebooks -q $(XDIST)

# Every chapter's assignment graded by otter as `make grade` grades (tests/book/test_grading.py):
# the solution gets full marks, the student notebook nothing, one wrong answer costs its question
# only, each with its reason; a class of every kind of hand-in (wrong types, loops, a syntax error,
# a deleted cell, exports of Gradescope and Canvas, unreadable files) gets its scores, statuses
# and reasons; and the student notebook holds no solution and no hidden test.
# PERCEPTRON_GRADING=1 runs them (test-notebooks-native selects `-m notebooks` too).
test-assignments: assignments
	PERCEPTRON_GRADING=1 $(BIN)/python -m pytest tests/book/test_grading.py -m notebooks -q $(XDIST)

# What a student installs, on the LOWEST versions pyproject.toml accepts, in one environment:
# the wheel ($(WHEEL), above) installed with its book extra into a new venv where every
# dependency of the package and of its extras is at its floor (tests/tools/lowest_versions.py
# turns each `>=X` into `==X`; the rest at the pins of requirements.txt), with the test tools
# but no book build (no myst-nb);
# `pip check` proves it consistent. In it, test-lowest runs the unit tests of the package (on
# the installed wheel: tests/book and tests/tools test the build's tools, which run at their
# pins) and then every chapter's reader notebook, as the book build wrote it for downloads and
# launch buttons, copied out of the repository (tests/tools/run_chapters_outside.py): nothing
# of the repository on the kernel's sys.path.
LOWEST       := _build/lowest-venv
LOWEST_BIN   := $(LOWEST)/bin
LOWEST_STAMP := $(LOWEST)/.installed

$(LOWEST_STAMP): requirements.txt pyproject.toml tests/tools/lowest_versions.py $(WHEEL)
	rm -rf $(LOWEST)
	$(PYTHON) -m venv $(LOWEST)
	$(PYTHON) tests/tools/lowest_versions.py --requirements requirements.txt > $(LOWEST)/constraints.txt
	$(LOWEST_BIN)/python -m pip install -q -c $(LOWEST)/constraints.txt \
	  "$(WHEEL)[book]" ipykernel pytest pytest-xdist hypothesis pyyaml
	$(LOWEST_BIN)/python -m pip check
	cd $(LOWEST) && bin/python -c "$$COMPILE_LOOPS"
	touch $@

test-lowest: $(BOOK_HTML) $(LOWEST_STAMP)
	@echo "== The wheel on the lowest versions: $$($(PYTHON) tests/tools/lowest_versions.py | tr '\n' ' ')"
	PERCEPTRON_EXPECT_FLOORS=1 $(LOWEST_BIN)/pytest tests --ignore=tests/book --ignore=tests/tools \
	  $(UNIT) $(XDIST) --hypothesis-profile ci
	$(BIN)/python tests/tools/run_chapters_outside.py --python $(LOWEST_BIN)/python \
	  --readers _build/html/_notebooks

# The cross-CPU check (book/_tools/notebook_numbers.py): every chapter run again in the lowest
# environment (see test-lowest) under numeric set-up 2 (another OpenBLAS kernel, numpy's SIMD
# paths off), and every number it glues compared with the book build's own run of it (floats to
# a relative 1e-6): a result that hinges on a last bit, or on a version pyproject.toml accepts,
# fails here before a reader's machine finds it. Nothing is stored between runs. The glue needs
# myst-nb, which is installed apart (pip --target), so that the lowest environment itself stays
# a student's, without it.
ALT_CACHE   := _build/alt-cache
LOWEST_GLUE := _build/lowest-glue
$(LOWEST_GLUE)/.installed: $(LOWEST_STAMP)
	rm -rf $(LOWEST_GLUE)
	$(LOWEST_BIN)/python -m pip install -q --target $(LOWEST_GLUE) -c $(LOWEST)/constraints.txt myst-nb
	touch $@

test-numeric: $(BOOK_HTML) $(LOWEST_GLUE)/.installed
	@vars=$$($(LOWEST_BIN)/python book/_tools/notebook_numbers.py env) || exit 1; \
	  echo "== Every chapter again, on the lowest versions, numeric set-up 2: $$vars"; \
	  rm -rf $(ALT_CACHE) && export $$vars PYTHONPATH=$(CURDIR)/$(LOWEST_GLUE) && \
	  $(call run_chapters,$(ALT_CACHE),$(LOWEST_GLUE)/bin)
	$(BIN)/python book/_tools/notebook_numbers.py compare _build/.jupyter_cache $(ALT_CACHE)

# The live-kernel tests time key press to new picture, so they run with nothing else beside them;
# then the other browser tests, one process per core (the extra builds and the PDFs that several
# tests read are made once, by whichever process comes first: see once_per_run in tests/conftest.py).
# Among them, what a student does with the student zip: a chapter unpacked outside the repository,
# run in a new venv with only ipykernel and nbclient, its first cell installing the package from
# the wheel beside it (tests/book/test_student_edition.py; about 80 s on 2 cores).
test-browser: test-browser-latency test-browser-pages

test-browser-latency: chromium $(BOOK_HTML)
	$(BIN)/python -m pytest tests -m "browser and latency" -rP

test-browser-pages: chromium $(BOOK_HTML)
	$(BIN)/python -m pytest tests -m "browser and not latency" -rP $(XDIST)

# The parts of `make test`, in order, each timed; Chromium first, so that a machine without it
# stops before any test runs. The table of times is printed at the end, or where a part failed.
TEST_PARTS := chromium venv test-unit book test-notebooks test-assignments test-lowest \
  test-numeric test-browser-latency test-browser-pages
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

# Strip every output and execution count from the chapters (committed notebooks hold none: the
# numbers come from each build's own run).
outputs: $(STAMP)
	$(BIN)/jupyter nbconvert --clear-output --inplace $(NOTEBOOKS)

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

serve: $(BOOK_HTML)
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory _build/html 8000

clean:
	rm -rf _build .pytest_cache .hypothesis
	find . -name __pycache__ -not -path "./$(VENV)/*" -prune -exec rm -rf {} +
