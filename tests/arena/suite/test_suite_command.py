"""`arena suite build` and `arena suite run` speak the command line's one grammar: every option
has help with its default, and a flag another command has means the same thing here."""

import argparse
import importlib.util
from pathlib import Path

from suite_hand import ROOT

from arena.__main__ import build_parser

_spec = importlib.util.spec_from_file_location(
    "suite_cli_walk", ROOT / "tests" / "arena" / "batch" / "test_cli.py")
assert _spec is not None and _spec.loader is not None
cli = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cli)


def suite_parsers():
    top = build_parser()
    [sub] = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    [nested] = [a for a in sub.choices["suite"]._actions
                if isinstance(a, argparse._SubParsersAction)]
    return {f"suite {name}": p for name, p in nested.choices.items()}


def test_each_option_has_help_with_its_default_and_means_what_it_means_elsewhere():
    meaning = {}
    for parser in cli.command_parsers().values():
        for action in parser._actions:
            for flag in action.option_strings:
                meaning.setdefault(flag, (action.dest, action.nargs, action.nargs != 0))
    parsers = suite_parsers()
    assert set(parsers) == {"suite build", "suite value", "suite run"}
    for name, parser in parsers.items():
        text = parser.format_help()
        for action in parser._actions:
            if not action.option_strings or action.dest == "help":
                continue
            assert action.help, (name, action.option_strings)
            if action.default not in (None, False, argparse.SUPPRESS):
                assert "default" in action.help or "(default: " in text, (name, action.dest)
            for flag in action.option_strings:
                mine = (action.dest, action.nargs, action.nargs != 0)
                assert meaning.get(flag, mine) == mine, (name, flag, meaning[flag])
    run = build_parser().parse_args(["suite", "run", "s.jsonl", "greedy", "--time", "0.1",
                                     "-j", "2", "-o", "a.jsonl", "-q"])
    assert (run.time_limit, run.jobs, run.output, run.quiet) == (0.1, 2, Path("a.jsonl"), True)
    built = build_parser().parse_args(["-v", "suite", "build", "games.jsonl"])
    assert built.verbose and built.output == Path("results/suite.jsonl")
