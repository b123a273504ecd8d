"""The examples in the API's docstrings and in docs/python.md run, from the repository root,
and print what they say."""

from __future__ import annotations

import doctest
import pathlib

import sealkit
import sealkit._api
from conftest import ROOT

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def run(test: doctest.DocTest) -> doctest.TestResults:
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_every_docstring_example() -> None:
    finder = doctest.DocTestFinder()
    tests = finder.find(sealkit._api, globs={"sealkit": sealkit, "pathlib": pathlib})
    examples = sum(len(test.examples) for test in tests)
    functions = {test.name.rsplit(".", 1)[-1] for test in tests if test.examples}
    assert functions >= set(sealkit._api.__all__), "a function without an example"
    failed, attempted = 0, 0
    for test in tests:
        result = run(test)
        failed += result.failed
        attempted += result.attempted
    assert (failed, attempted) == (0, examples)


def test_every_example_in_docs_python_md() -> None:
    # A code fence ends an example's expected output (the fence lines become blank lines,
    # so line numbers in failures stay those of the page).
    lines = (ROOT / "docs/python.md").read_text().split("\n")
    text = "\n".join("" if line.startswith("```") else line for line in lines)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {"sealkit": sealkit, "pathlib": pathlib},
                              "docs/python.md", str(ROOT / "docs/python.md"), 0)
    assert len(test.examples) >= 20
    result = run(test)
    assert result.failed == 0


def test_the_archive_audit_examples() -> None:
    import sealkit._archive

    tests = doctest.DocTestFinder().find(sealkit._archive, globs={"sealkit": sealkit})
    examples = sum(len(test.examples) for test in tests)
    assert examples >= 5
    failed = sum(run(test).failed for test in tests)
    assert failed == 0
