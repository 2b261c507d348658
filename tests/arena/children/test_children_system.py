"""The one place that knows the system: a course library is told apart by its first bytes, one
built for another system is refused before a batch starts in one line that says which it is
and where this system's are, and native Windows is refused at once."""
from pathlib import Path

import pytest

import arena.__main__ as cli
from arena.batch.config import ConfigError, parse_config, player_from_arg
from arena.children import system
from records.player import PlayerKind

# The first bytes of each kind of library (the rest of a real one does not matter here).
HEADS = {
    "elf": (b"\x7fELF\x02\x01\x01\x00", "Linux"),
    "macho64": (b"\xcf\xfa\xed\xfe\x07\x00\x00\x01", "Mac"),  # x86_64, as the course's
    "macho32": (b"\xce\xfa\xed\xfe\x07\x00\x00\x00", "Mac"),
    "macho64_be": (b"\xfe\xed\xfa\xcf\x00\x00\x00\x12", "Mac"),
    "macho32_be": (b"\xfe\xed\xfa\xce\x00\x00\x00\x12", "Mac"),
    "fat": (b"\xca\xfe\xba\xbe\x00\x00\x00\x02", "Mac"),
    "pe": (b"MZ\x90\x00\x03\x00\x00\x00", "Windows"),
}


def library(folder: Path, name: str, head: bytes) -> str:
    path = folder / name
    path.write_bytes(head + bytes(56))
    return str(path)


@pytest.mark.parametrize("kind", sorted(HEADS))
def test_a_librarys_system_is_read_from_its_first_bytes(kind, tmp_path):
    head, expected = HEADS[kind]
    assert system.library_system(library(tmp_path, "x.so", head)) == expected


def test_a_file_that_is_no_library_or_none_at_all_has_no_system(tmp_path):
    text = tmp_path / "notes.so"
    text.write_text("not a library\n")
    assert system.library_system(str(text)) is None
    assert system.library_system(str(tmp_path / "missing.so")) is None
    assert system.foreign_library(str(text)) is None  # left to the load fault (code -1/-2)


@pytest.mark.parametrize("here, kind, says", [
    ("Linux", "macho64", "is a macOS library (Mach-O); on Linux take the course's "
                         "AI/Linux/TestCases (.so)"),
    ("Linux", "pe", "is a Windows library (PE); on Linux take the course's "
                    "AI/Linux/TestCases (.so)"),
    ("Mac", "elf", "is a Linux library (ELF); on macOS take the course's "
                   "AI/Mac/TestCases (.dylib)"),
])
def test_a_library_of_another_system_is_named_with_where_the_right_one_lives(
        here, kind, says, tmp_path, monkeypatch):
    monkeypatch.setattr(system, "SYSTEM", here)
    path = library(tmp_path, "100.lib", HEADS[kind][0])
    assert system.foreign_library(path) == f"{path} {says}"


@pytest.mark.parametrize("here, kind", [("Linux", "elf"), ("Mac", "macho64"), ("Mac", "fat")])
def test_a_library_of_this_system_is_not_refused(here, kind, tmp_path, monkeypatch):
    monkeypatch.setattr(system, "SYSTEM", here)
    assert system.foreign_library(library(tmp_path, "100.lib", HEADS[kind][0])) is None


def test_the_shorthand_takes_a_library_of_this_system_and_refuses_another(tmp_path, monkeypatch):
    monkeypatch.setattr(system, "SYSTEM", "Linux")
    mine = library(tmp_path, "100.so", HEADS["elf"][0])
    assert player_from_arg(f"mine={mine}", {})[1].kind is PlayerKind.SO
    mac = library(tmp_path, "100.dylib", HEADS["macho64"][0])
    with pytest.raises(ConfigError) as refused:
        player_from_arg(f"mine={mac}", {})
    assert str(refused.value) == (f"command line: mine: {mac} is a macOS library (Mach-O); on "
                                  "Linux take the course's AI/Linux/TestCases (.so)")


def test_a_config_refuses_a_library_of_another_system_named_or_globbed(tmp_path, monkeypatch):
    monkeypatch.setattr(system, "SYSTEM", "Linux")
    dll = library(tmp_path, "7.dll", HEADS["pe"][0])
    with pytest.raises(ConfigError, match=r"^c.yaml: players.seven: .* is a Windows library"):
        parse_config({"players": {"seven": {"so": dll}}, "roundrobin": ["seven", "random"]},
                     "c.yaml")
    library(tmp_path, "8.dylib", HEADS["macho64"][0])
    with pytest.raises(ConfigError, match=r"^c.yaml: gauntlet.b\[0\]: .* is a macOS library"):
        parse_config({"gauntlet": {"a": ["random"], "b": [{"glob": f"{tmp_path}/*.dylib"}]}},
                     "c.yaml")


def test_a_gauntlet_with_a_library_of_another_system_stops_in_one_line(tmp_path, capsys,
                                                                       monkeypatch):
    monkeypatch.setattr(system, "SYSTEM", "Linux")
    mac = library(tmp_path, "100.dylib", HEADS["macho64"][0])
    assert cli.main(["gauntlet", f"mine={mac}", "greedy", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena: command line: mine: ") and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_native_windows_is_refused_at_once_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(system, "NATIVE_WINDOWS", True)
    assert cli.main(["gauntlet", "random", "greedy", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err == f"arena: {system.WINDOWS_REFUSAL}\n" and "WSL 2" in err
    assert not (tmp_path / "out").exists()
