"""Settings: the documented defaults are the real ones, layers override, bad values stop."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from appliance import cli
from appliance.system.config import Config, ConfigError, declared_settings, describe, load, sections
from tests.conftest import REPO

DOCUMENTED = REPO / "config" / "appliance.toml"


def test_the_documented_file_holds_exactly_the_defaults() -> None:
    with DOCUMENTED.open("rb") as fh:
        documented = tomllib.load(fh)
    # The box's own sections and those the games' houses declare ([timers], [broad_lines]...).
    found = dict(sections(Config()))
    assert set(documented) == set(found)
    for section, values in found.items():
        actual = {
            key: list(value) if isinstance(value, tuple) else value  # TOML has lists
            for key, value in values.items()
        }
        assert documented[section] == actual, f"[{section}] in {DOCUMENTED} differs from the code"


def test_every_setting_is_explained_by_a_comment() -> None:
    lines = DOCUMENTED.read_text().splitlines()
    for i, line in enumerate(lines):
        if "=" in line and not line.startswith("#"):
            j = i - 1
            while lines[j] and not lines[j].startswith(("#", "[")):
                j -= 1  # settings grouped under one comment, like width and height
            assert lines[j].startswith("#"), f"no comment above {line!r}"


def test_layers_later_wins(tmp_path: Path) -> None:
    etc = tmp_path / "etc.toml"
    user = tmp_path / "user.toml"
    etc.write_text('[server]\nport = 9000\n[table]\nlanguage = "cs"\n')
    user.write_text("[server]\nport = 9001\n")
    cfg = load(files=[etc, user], env={"EASEL_DISPLAY_ROTATION": "180"})
    assert (cfg.server.port, cfg.table.language, cfg.display.rotation) == (9001, "cs", 180)
    cfg = load(files=[etc, user], env={"EASEL_SERVER_PORT": "9002"})
    assert cfg.server.port == 9002
    cfg = load(files=[tmp_path / "missing.toml"], env={"EASEL_WIFI_SSID": "Cafe Wifi"})
    assert cfg.wifi.ssid == "Cafe Wifi"
    assert load(files=[], env={"EASEL_CHROMIUM": "/usr/bin/chromium"}) == Config()


@pytest.mark.parametrize(
    ("text", "env", "words"),
    [
        ("[display]\nrotation = 45\n", {}, ["display.rotation = 45", "one of 0, 90, 180, 270"]),
        ('[server]\nport = "80"\n', {}, ["server.port = '80'", "a whole number"]),
        ("", {"EASEL_SERVER_PORT": "70000"}, ["70000", "EASEL_SERVER_PORT", "1 to 65535"]),
        ('[table]\nlanguage = "de"\n', {}, ["table.language = 'de'", "'en', 'cs'"]),
        ("[table]\nseats = 4\n", {}, ["unknown setting table.seats", "max_players"]),
        ("[speakers]\nvolume = 3\n", {}, ["unknown section [speakers]", "sound"]),
        ("[sound]\nvolume = 130\n", {}, ["sound.volume = 130", "0 to 100"]),
        ('[sound]\nquiet_hours = "10pm-8am"\n', {}, ["sound.quiet_hours", "HH:MM-HH:MM"]),
        ('[sound]\nquiet_hours = "22:00-22:00"\n', {}, ["sound.quiet_hours"]),
        ('[wifi]\npassword = "short"\n', {}, ["wifi.password", "8 to 63"]),
        ("[server\nport = 1", {}, ["not valid TOML"]),
        ("server = 3\n", {}, ["'server' must be a [section]"]),
        # The games' sections (their houses declare them) are checked the same way.
        ("[timers]\nduplik_s = 5\n", {}, ["timers.duplik_s = 5", "a number from 10 to 600"]),
        ("[timers]\nextended_factor = 9\n", {}, ["timers.extended_factor = 9.0",
                                                  "a number from 1.0 to 4.0"]),
        ('[broad_lines]\ncheck_sheets = "yes"\n', {}, ["broad_lines.check_sheets = 'yes'",
                                                        "true or false"]),
        ("[luck_of_the_draw]\nextra_cards = 11\n", {}, ["luck_of_the_draw.extra_cards = 11",
                                                         "1 to 10"]),
        ("[broad_lines]\nsheet = 30\n", {}, ["unknown setting broad_lines.sheet", "sheets"]),
        ("", {"EASEL_BROAD_LINES_SHEETS": "61"}, ["broad_lines.sheets = 61",
                                                  "EASEL_BROAD_LINES_SHEETS", "5 to 60"]),
    ],
)
def test_bad_values_are_named(
    tmp_path: Path, text: str, env: dict[str, str], words: list[str]
) -> None:
    path = tmp_path / "appliance.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load(files=[path], env=env)
    for word in words:
        assert word in str(err.value)
    assert isinstance(err.value, ValueError)


def test_data_dir(tmp_path: Path) -> None:
    cfg = Config()
    assert cfg.data_dir({"STATE_DIRECTORY": "/var/lib/easel"}) == Path("/var/lib/easel")
    assert cfg.data_dir({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "easel"


def test_check_config_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    good = tmp_path / "good.toml"
    good.write_text('[wifi]\nssid = "Cafe"\npassword = "password123"\n')
    assert cli.main(["check-config", "--config", str(good)]) == 0
    out = capsys.readouterr().out
    assert "ssid = 'Cafe'" in out and "password123" not in out and "config OK" in out
    bad = tmp_path / "bad.toml"
    bad.write_text("[display]\nmode = 'tv'\n")
    assert cli.main(["check-config", "--config", str(bad)]) == 2
    assert "display.mode = 'tv'" in capsys.readouterr().err
    assert cli.main(["check-config", "--config", str(tmp_path / "nope.toml")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_describe_lists_every_setting() -> None:
    text = describe(Config())
    for section, values in sections(Config()):
        assert f"[{section}]" in text
        assert all(f"\n{key} = " in text for key in values), section


def test_the_games_sections_come_from_their_houses() -> None:
    declared = declared_settings()
    assert declared["timers"]["duplik_s"].default == 90
    assert set(declared["broad_lines"]) == {"sheets", "check_sheets"}
    cfg = load(files=[], env={"EASEL_TIMERS_DUPLIK_S": "120",
                              "EASEL_LUCK_OF_THE_DRAW_LONGER_GAME": "true"})
    assert (cfg.timers.duplik_s, cfg.luck_of_the_draw.longer_game) == (120, True)
    assert cfg.timers.artbox_s == Config().timers.artbox_s == 60
    assert Config().with_game_settings({"broad_lines.sheets": 30}).broad_lines.sheets == 30
    with pytest.raises(ConfigError, match=r"broad_lines\.sheets = 99"):
        Config().with_game_settings({"broad_lines.sheets": 99})
    with pytest.raises(ConfigError, match=r"unknown setting timers\.nope"):
        Config().with_game_settings({"timers.nope": 1})
    # Every setting a house's start option reads is one some house declares.
    from games import registry

    for game_id in registry.known_ids():
        for option in registry.house(game_id).start_options:
            if option.setting is not None:
                section, _, key = option.setting.partition(".")
                assert key in declared.get(section, {}), (game_id, option.setting)
