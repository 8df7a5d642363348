# Two commands set up a fresh machine: `make book` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JB_FLAGS := -n -W --keep-going

.PHONY: book exercises test test-unit test-notebooks test-browser serve clean outputs bench

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

# The same book without the exercises' solutions, for instructors to hand out.
exercises: $(STAMP)
	PERCEPTRON_HIDE_SOLUTIONS=1 $(BIN)/jupyter-book build . $(JB_FLAGS) --path-output _build/exercises
	@echo "Book without solutions: _build/exercises/_build/html/index.html"

test-unit: $(STAMP)
	$(BIN)/python -m pytest tests -m "not browser"

test-notebooks: $(STAMP)
	$(BIN)/python -m pytest --nbval-lax --nbval-sanitize-with book/_tools/nbval_sanitize.cfg book

test-browser: book
	$(BIN)/python -m pytest tests -m browser

test: test-unit test-notebooks test-browser

# Re-run every notebook and keep the outputs of the `# NBVAL_CHECK_OUTPUT` cells only.
outputs: $(STAMP)
	$(BIN)/python book/_tools/refresh_checked_outputs.py book

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

serve: book
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory _build/html 8000

clean:
	rm -rf _build .pytest_cache .hypothesis
	find . -name __pycache__ -not -path "./$(VENV)/*" -prune -exec rm -rf {} +
