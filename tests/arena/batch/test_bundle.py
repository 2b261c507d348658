"""What a cluster batch ships: the batch's folder less results and caches, outside `.so` files
under _external/, specs with paths relative to the bundle; nothing with a shared file system."""

import io
import zipfile

import pytest

from arena.cluster.bundle import BundleError, make_bundle
from records.player import PlayerSpec


def parsed(specs):
    return {name: PlayerSpec.parse(spec, name) for name, spec in specs.items()}


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    for rel in ("bot/__init__.py", "build/opponents/uct.so", "configs/a.yaml", "run.sh",
                ".git/HEAD", ".venv/bin/python", "results/arena/games.jsonl",
                "bot/__pycache__/x.pyc", "out/games.jsonl", "tests/mine.so",
                "bot/data/weights.json", ".hypothesis/x", ".mypy_cache/x"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel)
    (root / "run.sh").chmod(0o755)
    (tmp_path / "elsewhere.so").write_text("so")
    return root


def names(bundle):
    return set(zipfile.ZipFile(io.BytesIO(bundle.data)).namelist())


def test_ships_the_folder_less_what_no_player_reads(project):
    specs = parsed({"uct": {"so": "build/opponents/uct.so"}, "far": {"so": "../elsewhere.so"},
                    "bot": {"process": "python -m bot"}, "mine": {"so": "tests/mine.so"}})
    bundle = make_bundle(specs, project, shared_fs=False, skip={project / "out"})
    assert names(bundle) == {"bot/__init__.py", "build/opponents/uct.so", "configs/a.yaml",
                             "run.sh", "_external/1/elsewhere.so", "tests/mine.so",
                             "bot/data/weights.json"}
    assert bundle.specs["uct"]["so"] == "build/opponents/uct.so"
    assert bundle.specs["far"]["so"] == "_external/1/elsewhere.so"
    assert bundle.specs["bot"] == {"process": "python -m bot"}  # the YAML form travels
    assert PlayerSpec.parse(bundle.specs["bot"], "bot") == specs["bot"]
    info = zipfile.ZipFile(io.BytesIO(bundle.data)).getinfo("run.sh")
    assert (info.external_attr >> 16) & 0o777 == 0o755
    again = make_bundle(specs, project, shared_fs=False, skip={project / "out"})
    assert again.name == bundle.name  # same files, same name: workers unpack it once


def test_shared_fs_ships_nothing_and_a_missing_so_is_an_error(project):
    bundle = make_bundle(parsed({"uct": {"so": "build/opponents/uct.so"}}), project, True, set())
    assert bundle.data is None and bundle.root == str(project.resolve())
    with pytest.raises(BundleError, match="nowhere.so"):
        make_bundle(parsed({"x": {"so": "nowhere.so"}}), project, False, set())


def test_a_file_gone_between_the_walk_and_the_zip_is_left_out(project, monkeypatch):
    import arena.cluster.bundle as bundle_module

    walk = bundle_module._walk

    def walk_then_remove(root, skip):
        files = walk(root, skip)
        (project / "configs" / "a.yaml").unlink()  # a cache file another program removed
        return files

    monkeypatch.setattr(bundle_module, "_walk", walk_then_remove)
    bundle = make_bundle(parsed({"bot": {"process": "python -m bot"}}), project, False,
                         {project / "out"})
    assert "configs/a.yaml" not in names(bundle) and "run.sh" in names(bundle)
