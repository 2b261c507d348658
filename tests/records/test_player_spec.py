"""A player's spec, parsed once from a config's YAML form or the command line's shorthand."""

import pytest

from records.player import LOAD_TIMEOUT_S, PlayerKind, PlayerSpec, SpecError


def test_each_kind_with_its_options_and_one_set_of_defaults():
    bot = PlayerSpec.parse({"process": "python -m bot --time 0.3", "cwd": "x",
                            "env": {"BOT_TIME": 1}}, "bot")
    assert (bot.kind, bot.argv, bot.cwd, bot.env) == (
        PlayerKind.PROCESS, ["python", "-m", "bot", "--time", "0.3"], "x", {"BOT_TIME": "1"})
    lib = PlayerSpec.parse({"so": "uct.so"}, "uct")
    assert (lib.kind, lib.target, lib.load_timeout) == (PlayerKind.SO, "uct.so", LOAD_TIMEOUT_S)
    fun = PlayerSpec.parse({"python": "m:f", "args": {"depth": 2}}, "f")
    assert (fun.kind, fun.target, fun.args) == (PlayerKind.PYTHON, "m:f", {"depth": 2})
    assert PlayerSpec.parse({"process": ["a b", "c"]}, "p").argv == ["a b", "c"]


@pytest.mark.parametrize("value, key, problem", [
    ("python -m bot", "p", "expected a mapping"),
    ({}, "p", "needs exactly one of process, so, python"),
    ({"process": "x", "so": "y"}, "p", "needs exactly one of"),
    ({"so": "x.so", "cwd": "/"}, "p.cwd", "unknown key for a so player"),
    ({"process": "  "}, "p.process", "expected a command string"),
    ({"process": []}, "p.process", "expected a command string"),
    ({"python": "module"}, "p.python", "expected 'module:attribute'"),
    ({"so": 3}, "p.so", "expected a path"),
    ({"process": "x", "env": {"A": True}}, "p.env", "expected a mapping of names"),
    ({"so": "x.so", "load_timeout": 0}, "p.load_timeout", "expected seconds > 0"),
    ({"python": "m:f", "args": [1]}, "p.args", "expected a mapping"),
])
def test_a_bad_spec_names_the_key_and_the_problem(value, key, problem):
    with pytest.raises(SpecError) as err:
        PlayerSpec.parse(value, "p")
    assert err.value.key == key and problem in err.value.problem
    assert str(err.value).startswith(f"{key}: ")


def test_the_command_lines_shorthand():
    assert PlayerSpec.from_text("so/42.so").kind is PlayerKind.SO
    assert PlayerSpec.from_text("TestCases/100.dylib").target == "TestCases/100.dylib"  # macOS
    assert PlayerSpec.from_text("TestCases/100.dylib").kind is PlayerKind.SO
    assert PlayerSpec.from_text("TestCases/100.dll").kind is PlayerKind.SO  # Windows
    assert PlayerSpec.from_text("opponents.greedy:get_point").kind is PlayerKind.PYTHON
    assert PlayerSpec.from_text("python my_bot.py").argv == ["python", "my_bot.py"]
    assert PlayerSpec.from_text("./bots/a:b").kind is PlayerKind.PROCESS  # a slash: a command


def test_the_time_a_move_of_a_process_that_takes_one():
    bot = PlayerSpec.parse({"process": "python -m bot --time 0.3"}, "bot")
    assert bot.takes_time and bot.with_time(1.5).argv[-1] == "1.5"
    assert bot.argv[-1] == "0.3"  # the original is unchanged
    assert not PlayerSpec.parse({"process": "python -m bot --time"}, "b").takes_time
    assert not PlayerSpec.parse({"so": "x.so"}, "x").takes_time


def test_the_yaml_form_parses_back_to_the_same_spec():
    for value in ({"process": "python -m bot --time '0.3'", "cwd": "x", "env": {"A": "1"}},
                  {"so": "uct.so", "env": {"UCT_TIME": "0.1"}, "load_timeout": 5.0},
                  {"python": "m:f", "args": {"k": [1, 2]}}):
        spec = PlayerSpec.parse(value, "p")
        assert PlayerSpec.parse(spec.to_dict(), "p") == spec
