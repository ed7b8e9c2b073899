"""The appliance's settings: documented defaults, layered files, environment overrides.

Layers, later wins: the defaults below (documented, with the same values, in
config/appliance.toml), /etc/easel/appliance.toml, the user's config dir
($XDG_CONFIG_HOME/easel/appliance.toml), a file named with --config, then environment
variables EASEL_<SECTION>_<KEY> (e.g. EASEL_SERVER_PORT=8081). Every value is checked at
start; a bad one stops the start with one message naming the key, the value, where it came
from and what is allowed.
"""

from __future__ import annotations

import dataclasses
import difflib
import logging
import os
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appliance.system.table_sounds import quiet_hours_error

log = logging.getLogger("easel.config")

# EASEL_ variables that are not settings: read by the tests, the benchmarks and CI.
TOOL_VARIABLES = frozenset({
    "EASEL_CHROMIUM", "EASEL_SCREENSHOT_DIR", "EASEL_POWERCUTS", "EASEL_DROPS",
    "EASEL_CAFE_HOURS", "EASEL_FUZZ_EXAMPLES", "EASEL_AUDIT_STEPS", "EASEL_ENDURANCE_VERBOSE",
})
TOOL_PREFIXES = (
    "EASEL_TEST_", "EASEL_REQUIRE_", "EASEL_PI_CHECK", "EASEL_PI_SUITE", "EASEL_BOOT_CHECK",
)


class ConfigError(ValueError):
    """A setting is missing, unknown or not allowed; the message says which and why."""


@dataclass(frozen=True)
class ServerSettings:
    host: str = "0.0.0.0"
    port: int = 8080
    public_url: str = ""
    max_message_bytes: int = 262_144
    hello_timeout_s: int = 10
    header_timeout_s: int = 10


@dataclass(frozen=True)
class TableSettings:
    language: str = "en"
    room_code_length: int = 4
    max_players: int = 8
    family_filter: bool = True
    seats_per_address: int = 2
    handover_wait_s: int = 60
    away_after_s: int = 20
    away_wait_s: int = 20


@dataclass(frozen=True)
class DisplaySettings:
    mode: str = "auto"
    width: int = 1920
    height: int = 1080
    rotation: int = 0
    connector: str = "auto"
    present: str = "auto"


@dataclass(frozen=True)
class StorageSettings:
    data_dir: str = ""
    match_budget_mb: int = 8
    total_budget_mb: int = 512
    keep_matches_days: int = 90
    emulate_commit_ms: int = 0


@dataclass(frozen=True)
class WifiSettings:
    ssid: str = ""
    password: str = ""
    security: str = "WPA"


@dataclass(frozen=True)
class HostSettings:
    pin: str = ""
    tries: int = 5
    lockout_s: int = 60
    login_minutes: int = 240


@dataclass(frozen=True)
class PacksSettings:
    dir: str = ""


@dataclass(frozen=True)
class GallerySettings:
    keep_days: int = 7


@dataclass(frozen=True)
class LobbySettings:
    history: bool = True
    history_step_s: int = 8


@dataclass(frozen=True)
class SoundSettings:
    enabled: bool = True
    volume: int = 70
    quiet_hours: str = ""


@dataclass(frozen=True)
class PanelSettings:
    enabled: bool = True
    pin_factory: str = "auto"
    hourglass_button: int = 17
    die_button: int = 27
    reveal_button: int = 22
    hourglass_led: int = 23
    die_led: int = 24
    reveal_led: int = 25
    # Not 18-21 (I²S sound boards), 2-3 (I²C), 14-15 (the serial console): docs/wiring.md.
    bar: tuple[int, ...] = (4, 5, 6, 12, 13, 16, 26, 7, 8, 9)
    buzzer: int = 10
    buzzer_kind: str = "onoff"
    bounce_ms: int = 30
    hold_s: float = 1.5

    def pins(self) -> dict[str, int]:
        """Every GPIO the panel uses, by setting name (bar LEDs as bar[0], bar[1], ...)."""
        named = {
            name: getattr(self, name)
            for name in (
                "hourglass_button",
                "die_button",
                "reveal_button",
                "hourglass_led",
                "die_led",
                "reveal_led",
            )
        }
        named.update({f"bar[{i}]": pin for i, pin in enumerate(self.bar)})
        if self.buzzer_kind != "none":
            named["buzzer"] = self.buzzer
        return named


@dataclass(frozen=True)
class TouchSettings:
    source: str = "auto"
    device: str = ""
    grab: bool = False
    swap_xy: bool = False
    invert_x: bool = False
    invert_y: bool = False


@dataclass(frozen=True)
class RemoteSettings:
    enabled: bool = True
    keyboard: str = "auto"
    grab: bool = False


@dataclass(frozen=True)
class TvSettings:
    cec: bool = True
    device: str = "auto"
    osd_name: str = "Easel"
    wake: bool = False


@dataclass(frozen=True)
class GameSection:
    """A [section] of the settings the games' houses declare (games/house.py `Setting`,
    [timers], [broad_lines]...): its keys' values, read as attributes like any section's
    (`config.timers.duplik_s`)."""

    name: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def __getattr__(self, key: str) -> Any:
        if key.startswith("__") or key in ("name", "values"):
            raise AttributeError(key)
        try:
            return self.values[key]
        except KeyError:
            raise AttributeError(f"[{self.name}] has no setting {key!r}") from None


def declared_settings() -> dict[str, dict[str, Any]]:
    """section -> key -> the `Setting` a game's house declares (the registry's games, the
    catalogue's first; the first declaration of a key wins). The config names no game:
    the houses bring their sections."""
    from games.registry import house, known_ids

    out: dict[str, dict[str, Any]] = {}
    for game_id in known_ids():
        for setting in house(game_id).settings:
            section, _, key = setting.path.partition(".")
            out.setdefault(section, {}).setdefault(key, setting)
    return out


def _game_sections() -> dict[str, GameSection]:
    """The games' sections at their declared defaults."""
    return {
        section: GameSection(section, {key: s.default for key, s in keys.items()})
        for section, keys in declared_settings().items()
    }


@dataclass(frozen=True)
class Config:
    server: ServerSettings = field(default_factory=ServerSettings)
    table: TableSettings = field(default_factory=TableSettings)
    display: DisplaySettings = field(default_factory=DisplaySettings)
    storage: StorageSettings = field(default_factory=StorageSettings)
    wifi: WifiSettings = field(default_factory=WifiSettings)
    panel: PanelSettings = field(default_factory=PanelSettings)
    touch: TouchSettings = field(default_factory=TouchSettings)
    remote: RemoteSettings = field(default_factory=RemoteSettings)
    tv: TvSettings = field(default_factory=TvSettings)
    host: HostSettings = field(default_factory=HostSettings)
    packs: PacksSettings = field(default_factory=PacksSettings)
    gallery: GallerySettings = field(default_factory=GallerySettings)
    lobby: LobbySettings = field(default_factory=LobbySettings)
    sound: SoundSettings = field(default_factory=SoundSettings)
    games: Mapping[str, GameSection] = field(default_factory=_game_sections)
    """The sections the games' houses declare ([timers], [broad_lines]...), by name."""

    def __getattr__(self, name: str) -> Any:
        # A game's section reads like the box's own: config.timers.duplik_s.
        if name.startswith("__") or name == "games":
            raise AttributeError(name)
        try:
            return self.games[name]
        except KeyError:
            raise AttributeError(f"the config has no section {name!r}") from None

    def with_game_settings(self, changes: Mapping[str, Any]) -> Config:
        """This config with games' settings changed by dotted path ({"timers.duplik_s":
        40}), each checked as a file's would be (a ConfigError names a bad one)."""
        games = {name: dict(section.values) for name, section in self.games.items()}
        declared = declared_settings()
        for path, value in changes.items():
            name, _, key = path.partition(".")
            setting = declared.get(name, {}).get(key)
            if setting is None:
                raise ConfigError(f"unknown setting {path}; the games declare: "
                                  + ", ".join(f"{n}.{k}" for n in declared for k in declared[n]))
            games[name][key] = _check(name, key, value, "the code", setting.default,
                                      _bounds(setting))
        return dataclasses.replace(
            self, games={name: GameSection(name, values) for name, values in games.items()})

    def data_dir(self, env: Mapping[str, str] = os.environ) -> Path:
        """Where the SQLite file lives: the setting, systemd's StateDirectory, or XDG."""
        if self.storage.data_dir:
            return Path(self.storage.data_dir).expanduser()
        if env.get("STATE_DIRECTORY"):
            return Path(env["STATE_DIRECTORY"].split(":")[0])
        base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "easel"

    def packs_dir(self, env: Mapping[str, str] = os.environ) -> Path:
        """Where word packs live (uploads go here): the setting, else <data dir>/packs,
        which an update of the software leaves alone."""
        if self.packs.dir:
            return Path(self.packs.dir).expanduser()
        return self.data_dir(env) / "packs"


Check = Callable[[Any], str | None]
"""Returns None when the value is allowed, else what is allowed."""


def _one_of(*allowed: object) -> Check:
    return lambda v: None if v in allowed else "one of " + ", ".join(map(repr, allowed))


def _between(low: float, high: float) -> Check:
    return lambda v: None if low <= v <= high else f"a number from {low} to {high}"


def _url(value: str) -> str | None:
    ok = value == "" or value.startswith(("http://", "https://"))
    return None if ok else "empty, or an address starting with http:// or https://"


def _ssid(value: str) -> str | None:
    return None if len(value.encode()) <= 32 else "at most 32 bytes (a Wi-Fi name's limit)"


def _gpio(value: int) -> str | None:
    # BCM numbers of the 40-pin header's GPIOs; 0 and 1 belong to the HAT EEPROM.
    return None if 2 <= value <= 27 else "a GPIO number (BCM) from 2 to 27"


def _gpio_list(value: tuple[int, ...]) -> str | None:
    if not 1 <= len(value) <= 16 or any(_gpio(v) for v in value):
        return "a list of 1 to 16 GPIO numbers (BCM), each from 2 to 27"
    return None


# The kernel's names of the screen outputs a Pi has (HDMI is HDMI-A there: no Pi has the
# dual-link HDMI-B), and virtio-gpu's in a virtual machine; "HDMI" means HDMI-A.
_OUTPUT_KINDS = ("HDMI-A", "DSI", "DPI", "Composite", "Virtual")
_OUTPUT = re.compile(
    r"(?i:HDMI|(?:" + "|".join(re.escape(k) for k in _OUTPUT_KINDS) + r")(?:-[1-9][0-9]?)?)"
)


def _connector(value: str) -> str | None:
    # A kind ("DSI", "HDMI") or a kernel connector name ("HDMI-A-2", "DSI-1"); a name no
    # Pi has ("HDMI-B", "HDMI-3") would only ever fall back to another screen.
    if value == "auto" or _OUTPUT.fullmatch(value):
        return None
    return ('"auto", or a Pi\'s screen output: a kind ("DSI", "HDMI", "DPI", "Composite") '
            'or one output by the kernel\'s name ("HDMI-A-1", "HDMI-A-2", "DSI-1"; '
            '"Virtual-1" in a virtual machine)')


def _touch_device(value: str) -> str | None:
    ok = value == "" or value.startswith("/dev/input/")
    return None if ok else "empty (find the touch screen), or a path under /dev/input/"


def _cec_device(value: str) -> str | None:
    ok = value == "auto" or (value.startswith("/dev/") and len(value) <= 100)
    return None if ok else (
        '"auto" (the adapter of the screen\'s HDMI port) or a CEC device path, e.g. /dev/cec1'
    )


def _osd_name(value: str) -> str | None:
    # CEC's Set OSD Name carries at most 14 bytes; cec-ctl refuses longer names.
    ok = 1 <= len(value) <= 14 and value.isascii() and value.isprintable()
    return None if ok else "1 to 14 plain ASCII characters (HDMI-CEC's limit)"


def _pin(value: str) -> str | None:
    ok = value == "" or (value.isascii() and value.isdigit() and 4 <= len(value) <= 12)
    return None if ok else "empty (no host page), or 4 to 12 digits"


def _wifi_password(value: str) -> str | None:
    return None if value == "" or 8 <= len(value) <= 63 else "empty, or 8 to 63 characters"


CHECKS: dict[tuple[str, str], Check] = {
    ("server", "port"): _between(1, 65535),
    ("server", "public_url"): _url,
    ("server", "max_message_bytes"): _between(1024, 4 * 1024 * 1024),
    ("server", "hello_timeout_s"): _between(1, 60),
    ("server", "header_timeout_s"): _between(2, 300),
    ("table", "seats_per_address"): _between(0, 8),
    ("table", "handover_wait_s"): _between(10, 600),
    ("table", "away_after_s"): _between(5, 600),
    ("table", "away_wait_s"): _between(5, 600),
    ("storage", "match_budget_mb"): _between(1, 1024),
    ("storage", "total_budget_mb"): _between(16, 65536),
    ("storage", "emulate_commit_ms"): _between(0, 1000),
    ("storage", "keep_matches_days"): _between(1, 3650),
    ("table", "language"): _one_of("en", "cs"),
    ("table", "room_code_length"): _between(4, 8),
    ("table", "max_players"): _between(3, 8),
    ("display", "mode"): _one_of("auto", "window", "fullscreen", "headless"),
    ("display", "width"): _between(320, 7680),
    ("display", "height"): _between(240, 4320),
    ("display", "rotation"): _one_of(0, 90, 180, 270),
    ("display", "connector"): _connector,
    ("display", "present"): _one_of("auto", "renderer", "surface"),
    ("wifi", "ssid"): _ssid,
    ("wifi", "password"): _wifi_password,
    ("wifi", "security"): _one_of("WPA", "WEP", "nopass"),
    ("panel", "pin_factory"): _one_of("auto", "lgpio", "rpigpio", "mock"),
    ("panel", "hourglass_button"): _gpio,
    ("panel", "die_button"): _gpio,
    ("panel", "reveal_button"): _gpio,
    ("panel", "hourglass_led"): _gpio,
    ("panel", "die_led"): _gpio,
    ("panel", "reveal_led"): _gpio,
    ("panel", "bar"): _gpio_list,
    ("panel", "buzzer"): _gpio,
    ("panel", "buzzer_kind"): _one_of("onoff", "tonal", "none"),
    ("panel", "bounce_ms"): _between(0, 500),
    ("panel", "hold_s"): _between(0.3, 10.0),
    ("touch", "source"): _one_of("auto", "evdev", "sdl", "none"),
    ("touch", "device"): _touch_device,
    ("remote", "keyboard"): _one_of("auto", "evdev", "sdl"),
    ("tv", "device"): _cec_device,
    ("tv", "osd_name"): _osd_name,
    ("host", "pin"): _pin,
    ("host", "tries"): _between(1, 20),
    ("host", "lockout_s"): _between(5, 3600),
    ("host", "login_minutes"): _between(5, 1440),
    ("gallery", "keep_days"): _between(0, 365),
    ("lobby", "history_step_s"): _between(3, 60),
    ("sound", "volume"): _between(0, 100),
    ("sound", "quiet_hours"): quiet_hours_error,
}


def default_paths(env: Mapping[str, str] = os.environ) -> list[Path]:
    user = Path(env.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "easel"
    return [Path("/etc/easel/appliance.toml"), user / "appliance.toml"]


def load(
    files: Sequence[Path] | None = None,
    env: Mapping[str, str] = os.environ,
    extra: Path | None = None,
) -> Config:
    """Read every layer that exists and return the checked settings, or raise ConfigError."""
    paths = list(default_paths(env) if files is None else files)
    if extra is not None:
        if not extra.is_file():
            raise ConfigError(f"config file {extra} does not exist")
        paths.append(extra)
    values: dict[str, dict[str, tuple[Any, str]]] = {}
    for path in paths:
        if path.is_file():
            for section, key, value in _read_file(path):
                values.setdefault(section, {})[key] = (value, str(path))
    for section, key, value, source in _read_env(env):
        values.setdefault(section, {})[key] = (value, source)
    return _build(values)


def _read_file(path: Path) -> list[tuple[str, str, Any]]:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path} is not valid TOML: {err}") from None
    except OSError as err:
        raise ConfigError(f"cannot read {path}: {err.strerror}") from None
    out: list[tuple[str, str, Any]] = []
    for section, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError(
                f"{path}: '{section}' must be a [section], one of {', '.join(_sections())}"
            )
        out.extend((section, key, value) for key, value in table.items())
    return out


def _read_env(env: Mapping[str, str]) -> list[tuple[str, str, Any, str]]:
    out: list[tuple[str, str, Any, str]] = []
    for name, raw in env.items():
        if not name.startswith("EASEL_"):
            continue
        rest = name[len("EASEL_") :].lower()
        section = next((s for s in _sections() if rest.startswith(s + "_")), None)
        if section is None:
            _warn_unknown_variable(name)
            continue
        key = rest[len(section) + 1 :]
        try:
            value = tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw  # a bare word: a string
        if isinstance(getattr(getattr(Config(), section), key, None), str) and not isinstance(
            value, str
        ):
            value = raw  # a text setting stays text: EASEL_HOST_PIN=0123 is "0123", not 123
        out.append((section, key, value, f"environment variable {name}"))
    return out


def setting_variables() -> list[str]:
    """The environment variable of every setting: EASEL_<SECTION>_<KEY>."""
    return [
        f"EASEL_{section}_{key}".upper()
        for section, values in sections(Config())
        for key in values
    ]


def nearest_variable(name: str) -> str | None:
    """The setting's variable `name` was most likely meant to be, if any is close."""
    rest = name.upper().removeprefix("EASEL_")
    names = setting_variables()
    # The section left out (EASEL_PORT, EASEL_DATA_DIR) is the usual slip; else a typo.
    for variable in names:
        if variable.endswith("_" + rest):
            return variable
    keys = {v.removeprefix("EASEL_"): v for v in names}
    close = difflib.get_close_matches(rest, list(keys), n=1, cutoff=0.75)
    return keys[close[0]] if close else None


def _warn_unknown_variable(name: str) -> None:
    """An EASEL_ variable that names no section is ignored, but said: a setting whose
    name was mistyped (EASEL_DATA_DIR) would otherwise silently not apply."""
    if name in TOOL_VARIABLES or name.startswith(TOOL_PREFIXES):
        return
    nearest = nearest_variable(name)
    hint = f"did you mean {nearest}?" if nearest else "settings are EASEL_<SECTION>_<KEY>"
    log.warning("environment variable %s is not a setting and is ignored; %s (sections: "
                "%s)", name, hint, ", ".join(_sections()))


def _box_sections() -> list[str]:
    """The box's own sections (the games' come from their houses)."""
    return [f.name for f in dataclasses.fields(Config) if f.name != "games"]


def _sections() -> list[str]:
    return [*_box_sections(), *declared_settings()]


def sections(config: Config) -> list[tuple[str, dict[str, Any]]]:
    """Every [section] of `config` with its keys' values: the box's, then the games'."""
    own = [(name, dataclasses.asdict(getattr(config, name))) for name in _box_sections()]
    return [*own, *((name, dict(s.values)) for name, s in config.games.items())]


def _build(values: dict[str, dict[str, tuple[Any, str]]]) -> Config:
    sections: dict[str, Any] = {}
    given_sources: dict[str, str] = {}
    for sec_field in dataclasses.fields(Config):
        if sec_field.name == "games":
            continue
        cls = _section_class(sec_field.name)
        given = values.pop(sec_field.name, {})
        if given:
            given_sources[sec_field.name] = ", ".join(sorted({src for _, src in given.values()}))
        known = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, (value, source) in given.items():
            _refuse_unknown(sec_field.name, key, source, known)
            kwargs[key] = _check(sec_field.name, key, value, source, known[key].default)
        sections[sec_field.name] = cls(**kwargs)
    games: dict[str, GameSection] = {}
    for name, declared in declared_settings().items():
        given = values.pop(name, {})
        checked: dict[str, Any] = {}
        for key, (value, source) in given.items():
            _refuse_unknown(name, key, source, declared)
            setting = declared[key]
            checked[key] = _check(name, key, value, source, setting.default, _bounds(setting))
        games[name] = GameSection(
            name, {key: checked.get(key, s.default) for key, s in declared.items()})
    _check_panel_pins(sections["panel"], given_sources.get("panel", "the defaults"))
    if values:
        section = next(iter(values))
        source = next(iter(values[section].values()))[1]
        raise ConfigError(
            f"unknown section [{section}] (from {source}); known: {', '.join(_sections())}"
        )
    return Config(**sections, games=games)


def _refuse_unknown(section: str, key: str, source: str, known: Mapping[str, Any]) -> None:
    """A key the section does not have stops the start, naming what it has (a typo in
    the file would otherwise be silently ignored)."""
    if key not in known:
        raise ConfigError(
            f"unknown setting {section}.{key} (from {source}); [{section}] has: {', '.join(known)}"
        )


def _bounds(setting: Any) -> Check | None:
    """A game's number setting keeps its declared bounds."""
    if setting.low is None or setting.high is None:
        return None
    return _between(setting.low, setting.high)


def _check_panel_pins(panel: PanelSettings, source: str) -> None:
    """Two parts wired to one GPIO would fight: name both settings."""
    seen: dict[int, str] = {}
    for name, pin in panel.pins().items():
        if pin in seen:
            raise ConfigError(
                f"panel.{seen[pin]} and panel.{name} are both GPIO{pin} (from {source}); "
                "every part of the panel needs its own pin (see docs/wiring.md)"
            )
        seen[pin] = name


def _section_class(name: str) -> type:
    cls: type = type(getattr(Config(), name))
    return cls


def _check(
    section: str, key: str, value: Any, source: str, default: Any, check: Check | None = None
) -> Any:
    want = type(default)
    if want is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if want is tuple and isinstance(value, list):
        if not all(type(v) is int for v in value):
            raise ConfigError(
                f"{section}.{key} = {value!r} (from {source}) is not allowed: "
                "it must be a list of whole numbers, e.g. [4, 5, 6]"
            )
        value = tuple(value)
    if type(value) is not want:
        raise ConfigError(
            f"{section}.{key} = {value!r} (from {source}) is not allowed: "
            f"it must be {_type_word(want)}"
        )
    check = check or CHECKS.get((section, key))
    allowed = check(value) if check else None
    if allowed is not None:
        raise ConfigError(
            f"{section}.{key} = {value!r} (from {source}) is not allowed: it must be {allowed}"
        )
    return value


def _type_word(tp: type) -> str:
    return {
        int: "a whole number",
        float: "a number",
        str: "text in quotes",
        bool: "true or false",
        tuple: "a list of whole numbers, e.g. [4, 5, 6]",
    }[tp]


def describe(config: Config) -> str:
    """The settings in force, as TOML-ish lines, for `easel check-config`."""
    lines = []
    for section, values in sections(config):
        lines.append(f"[{section}]")
        for key, value in values.items():
            if isinstance(value, tuple | list):
                value = list(value)  # TOML writes lists in brackets
            secret = key == "password" or (section, key) == ("host", "pin")
            shown = "********" if secret and value else repr(value)
            lines.append(f"{key} = {shown}")
        lines.append("")
    return "\n".join(lines)
