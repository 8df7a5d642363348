# Two commands set up a fresh machine: `make book` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JB_FLAGS := -n -W --keep-going

.PHONY: book exercises student pdf test test-unit test-deep test-notebooks test-notebooks-native test-notebooks-alt test-browser serve clean outputs bench

# The stamp makes the venv rebuild when the pins change, and only then.
$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -r requirements.txt
	$(BIN)/python -m pip install --no-deps -e .
	touch $(STAMP)

book: $(STAMP)
	$(BIN)/jupyter-book build . $(JB_FLAGS)
	@test -f _build/html/index.html && echo "Book built: _build/html/index.html"

# The student edition: the book without the exercises' solutions, whose .ipynb downloads have
# none either, and every chapter's notebook without solutions in one zip to hand out.
exercises: $(STAMP)
	PERCEPTRON_HIDE_SOLUTIONS=1 $(BIN)/jupyter-book build . $(JB_FLAGS) --path-output _build/exercises
	cp _build/exercises/_build/html/student-notebooks.zip _build/exercises/student-notebooks.zip
	@echo "Book without solutions: _build/exercises/_build/html/index.html"
	@echo "Student notebooks: _build/exercises/student-notebooks.zip ($$(du -k _build/exercises/student-notebooks.zip | cut -f1) KB)"

student: exercises

# Handouts: every page and the whole book (book.pdf) printed to _build/pdf with headless Chromium.
pdf: book
	$(BIN)/python book/_tools/print_pdf.py _build/html _build/pdf

# pytest-xdist: one process per core.
XDIST := -n auto

# The property tests run hypothesis's "ci" profile: derandomized, so every run tries the same
# examples and a failure is a failure of the change at hand (see tests/conftest.py).
test-unit: $(STAMP)
	$(BIN)/python -m pytest tests -m "not browser" $(XDIST) --hypothesis-profile ci

# The property tests only, with random examples and DEEP_FACTOR times as many of them: a search
# for bugs, not a gate. A failure prints the falsifying example; fix it and keep it as an @example.
DEEP_FACTOR ?= 10
test-deep: $(STAMP)
	PERCEPTRON_DEEP_FACTOR=$(DEEP_FACTOR) $(BIN)/python -m pytest tests -m "hypothesis and not browser" \
	  $(XDIST) --hypothesis-profile deep

# Every notebook executes, and every number it glues matches tests/notebook_numbers/ (floats to a
# relative 1e-6). Twice: as the machine is, then under another OpenBLAS kernel with numpy's SIMD
# paths off, so that a result that hinges on a last bit fails here before a reader's machine finds it.
# As the machine is, the runs checked are the book build's own (kept in its execution cache), so
# the numbers checked are the numbers on the published pages and nothing runs twice.
NOTEBOOK_CHECKS := PERCEPTRON_NOTEBOOKS=1 $(BIN)/python -m pytest tests/test_notebooks.py -q

test-notebooks: test-notebooks-native test-notebooks-alt

test-notebooks-native: book
	@echo "== Notebook checks, numeric set-up 1: as the machine is (the book build's runs)"
	@start=$$(date +%s); PERCEPTRON_NOTEBOOKS_FROM_BUILD=_build/.jupyter_cache $(NOTEBOOK_CHECKS) \
	  && echo "== Notebook checks, set-up 1: passed in $$(( $$(date +%s) - start )) s wall time"

test-notebooks-alt: $(STAMP)
	@$(BIN)/python book/_tools/numeric_setups.py demo
	@vars=$$($(BIN)/python book/_tools/numeric_setups.py env) || exit 1; \
	  echo "== Notebook checks, numeric set-up 2: $$vars"; \
	  start=$$(date +%s); env $$vars $(NOTEBOOK_CHECKS) \
	  && echo "== Notebook checks, set-up 2: passed in $$(( $$(date +%s) - start )) s wall time"

# The live-kernel tests time key press to new picture, so they run with nothing else beside them;
# then the other browser tests, one process per core (the extra builds and the PDFs that several
# tests read are made once, by whichever process comes first: see once_per_run in tests/conftest.py).
test-browser: book
	$(BIN)/python -m pytest tests -m "browser and latency" -rP
	$(BIN)/python -m pytest tests -m "browser and not latency" -rP $(XDIST)

test: test-unit test-notebooks test-browser

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
