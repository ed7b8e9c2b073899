"""A fresh machine, any machine: a plain clone tests itself (nothing is read from outside
the repository), and a mistyped EASEL_ variable is said, not silently ignored."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from appliance.system.config import load, nearest_variable, setting_variables
from tests.conftest import REPO

# Spelled in two parts so that this file does not name them itself.
OUTSIDE = ".." + "/shared"
MACHINE = "/wo" + "rk/"  # the folder the checkout lives in on the development machine


def repository_files() -> list[Path]:
    """Every file of the checkout that git would commit (tracked or new, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.split(b"\0")
    return [REPO / name.decode() for name in listed if name and (REPO / name.decode()).is_file()]


def test_no_file_of_the_repository_refers_to_the_folder_beside_it() -> None:
    """The tests' data live in tests/data (with their licences); the rules and the design
    are the founders' and are named without a path out of the repository."""
    files = repository_files()
    assert any(f.name == "conftest.py" for f in files)
    found = []
    for path in files:
        data = path.read_bytes()
        if OUTSIDE.encode() in data or MACHINE.encode() in data:
            line = next(i for i, text in enumerate(data.splitlines(), 1)
                        if OUTSIDE.encode() in text or MACHINE.encode() in text)
            found.append(f"{path.relative_to(REPO)}:{line}")
    assert not found, "these read or name a folder outside the repository: " + ", ".join(found)


def test_the_test_data_carry_their_sources() -> None:
    data = REPO / "tests" / "data"
    for folder in (data / "touch", data / "strokes" / "dollar1"):
        assert (folder / "SOURCE.md").is_file(), folder
    assert (data / "touch" / "LICENSE.evemu-devices").is_file()


@pytest.mark.parametrize(
    ("mistyped", "meant"),
    [
        ("EASEL_DATA_DIR", "EASEL_STORAGE_DATA_DIR"),
        ("EASEL_PORT", "EASEL_SERVER_PORT"),
        ("EASEL_LANGUAGE", "EASEL_TABLE_LANGUAGE"),
    ],
)
def test_an_unknown_easel_variable_names_the_setting_meant(
    mistyped: str, meant: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "easel.config")
    config = load(files=[], env={mistyped: "/srv/easel"})
    assert config.storage.data_dir == "", "ignored, as before"
    (record,) = caplog.records
    assert mistyped in record.getMessage() and f"did you mean {meant}?" in record.getMessage()
    assert nearest_variable(mistyped) == meant
    assert meant in setting_variables()


def test_the_tools_variables_and_real_settings_say_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, "easel.config")
    env = {"EASEL_CHROMIUM": "/usr/bin/chromium", "EASEL_REQUIRE_TOOLS": "1",
           "EASEL_PI_CHECK": "1", "EASEL_PI_SUITE": "trixie", "EASEL_BOOT_CHECK": "1",
           "EASEL_BOOT_CHECK_ACCEL": "tcg", "EASEL_STORAGE_DATA_DIR": "/srv/easel"}
    assert load(files=[], env=env).storage.data_dir == "/srv/easel"
    assert not caplog.records
    load(files=[], env={"EASEL_WHATEVER": "1"})
    assert "EASEL_<SECTION>_<KEY>" in caplog.records[0].getMessage()


def test_easel_check_config_shows_the_warning(tmp_path: Path) -> None:
    env = {**os.environ, "EASEL_DATA_DIR": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "appliance", "check-config"], cwd=REPO, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "did you mean EASEL_STORAGE_DATA_DIR?" in result.stderr


def test_the_readme_names_the_variables_for_the_port_and_the_data_folder() -> None:
    readme = (REPO / "README.md").read_text()
    assert "EASEL_SERVER_PORT" in readme and "EASEL_STORAGE_DATA_DIR" in readme
