"""Config checking: good configs expand to pairings, every mistake is one line naming the key."""

import pytest

from arena.batch.config import ConfigError, load_config, with_overrides
from records.player import PlayerKind, PlayerSpec

GOOD = """\
batch: t
rounds: 3
time_limit: 1
players:
  bot: {process: "python -m bot --time 0.3"}
  greedy: {python: "opponents.greedy:get_point"}
  uct: {so: build/opponents/uct.so, env: {UCT_PLAYOUTS: 2000}}
gauntlet:
  a: [bot]
  b: [greedy, uct]
"""


def write(tmp_path, text):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    return path


def test_good_gauntlet_config(tmp_path):
    cfg = load_config(write(tmp_path, GOOD))
    assert cfg.pairings == [("bot", "greedy"), ("bot", "uct")]
    assert cfg.time_limit == 1.0 and isinstance(cfg.time_limit, float)
    assert cfg.players["uct"].env == {"UCT_PLAYOUTS": "2000"}
    assert cfg.jobs == 1  # default


def test_roundrobin_and_globs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "TestCases").mkdir()
    for n in ("02", "04"):
        (tmp_path / "TestCases" / f"{n}.so").write_bytes(b"")
    cfg = load_config(write(tmp_path, "players: {x: {so: x.so}}\n"
                                      "roundrobin: [x, {glob: 'TestCases/*.so'}]\n"))
    assert cfg.pairings == [("x", "02"), ("x", "04"), ("02", "04")]
    assert cfg.players["02"] == PlayerSpec(PlayerKind.SO, "TestCases/02.so")


@pytest.mark.parametrize("change, key", [
    (("rounds: 3", "rounds: three"), "rounds"),
    (("rounds: 3", "rounds: 0"), "rounds"),
    (("time_limit: 1", "time_limit: -1"), "time_limit"),
    (("batch: t", "bacth: t"), "bacth"),
    (("{so: build/opponents/uct.so,", "{so: build/opponents/uct.so, cwd: x,"), "players.uct.cwd"),
    (('{python: "opponents.greedy:get_point"}', "{python: greedy}"), "players.greedy.python"),
    (("b: [greedy, uct]", "b: [greedy, mcts]"), "gauntlet.b[1]"),
    (("bot: {process", "my_bot: {process"), "players.my_bot"),
    (("a: [bot]", "a: [bot, {glob: 'nowhere/*.so'}]"), "gauntlet.a[1]"),
    (("rounds: 3", "rounds: 3\ncluster: local:0"), "cluster"),
    (("rounds: 3", "rounds: 3\ncluster: lab1"), "cluster"),
    (("rounds: 3", "rounds: 3\nshared_fs: yes please"), "shared_fs"),
    (("rounds: 3", "rounds: 3\nsprt: [10, 0]"), "sprt"),
    (("rounds: 3", "rounds: 3\nsprt: 5"), "sprt"),
])
def test_config_error_is_one_line_naming_file_and_key(tmp_path, change, key):
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}: {key}: ") and "\n" not in message


def test_broken_yaml_and_missing_file(tmp_path):
    with pytest.raises(ConfigError, match=r"c.yaml: line \d+: not valid YAML"):
        load_config(write(tmp_path, "rounds: 1\nplayers: [\n"))
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "none.yaml")


def test_overrides_replace_keys_and_are_checked(tmp_path):
    cfg = load_config(write(tmp_path, GOOD))
    new = with_overrides(cfg, {"rounds": 1, "jobs": None, "seed": 9})
    assert (new.rounds, new.jobs, new.seed) == (1, cfg.jobs, 9)
    with pytest.raises(ConfigError, match="command line: jobs: must be at least 1"):
        with_overrides(cfg, {"jobs": 0})


def test_cluster_shared_fs_and_sprt_keys(tmp_path):
    cfg = load_config(write(tmp_path, GOOD + "cluster: tcp://lab1:8786\nshared_fs: true\n"
                                             "sprt: [0, 10]\n"))
    assert (cfg.cluster, cfg.shared_fs, cfg.sprt) == ("tcp://lab1:8786", True, (0.0, 10.0))
    new = with_overrides(cfg, {"cluster": "local:3", "sprt": [-5, 5], "shared_fs": None})
    assert (new.cluster, new.shared_fs, new.sprt) == ("local:3", True, (-5.0, 5.0))
