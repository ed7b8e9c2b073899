"""What a game brings to the box beside its rules: everything the box needs to know of it.

The box (appliance/) names no game. It asks the registry for a game's `House` and finds
there: the keepsakes of a finished match (the pictures and captions its gallery and the
lobby's history show, and scenes such as Duplik's), the settings of
config/appliance.toml it brings and which of them feed which start options (with the
controls and labels the host pages show), the decks a pack may extend or replace,
the schemas of its moves, how the kiosk speaks of it (played together or not, what a
player without a phone can do) and the capabilities it wants from the box (a helper that
needs a library games/ may not import, such as the word-form opinion of
games/word_forms.py), and where its phone script and (for a game from outside the box)
its kiosk screen are.

A catalogued game declares its house in `games/<id>_house.py` (its `HOUSE`), which the
registry reads at the first look; any other game passes it to `registry.register`.
Everything here is plain data and pure functions, like the rules themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from games.action_schema import ActionSchemas
from games.core import JSON, Rules, Seat
from games.decks import Deck, Text
from games.sheet import Stroke


@dataclass(frozen=True)
class Picture:
    """One drawing to keep: the round it is shown under (from 1), who drew it (a shared
    easel has several artists), what it shows, its strokes, and whether it is the round's
    best (most recognised, best scored: the lobby's history shows those)."""

    round: int
    artists: tuple[Seat, ...]
    caption: Text | None
    strokes: tuple[Stroke, ...]
    best: bool = False


@dataclass(frozen=True)
class Scene:
    """A picture the box made for a round (Duplik's scene), as SVG, with its title."""

    round: int
    title: Text
    svg: str


@dataclass(frozen=True)
class Keepsakes:
    pictures: tuple[Picture, ...] = ()
    scenes: tuple[Scene, ...] = ()
    verdict: Text | None = None
    """What the table's result means in the rules' own words, for a finished game played
    together (Broad Lines' rating): the art show says it under the count."""


KeepsakeCollector = Callable[[Iterable[Any]], Keepsakes]
"""The match's states one by one, from `setup` to the last -> its keepsakes. The states
come from a generator: a long game's states are never all in memory at once."""


OptionValue = bool | int | float | str


@dataclass(frozen=True)
class StartOption:
    """A start option of the game, as the box sets it and the host chooses it.

    `setting`, when given, is the dotted path of the key of config/appliance.toml that
    gives its value ("timers.duplik_s"); a host's own options at start override it. An
    option with a control (`toggle`, a `number` between two bounds, or `choices` of
    (value, label) pairs) is offered on the host page under its `label` (English and
    Czech), from the setting's value or else `default`; `on_phone` offers it in the
    seated host's lobby on the phone as well (which then always sends it, from the
    setting's value or else `default`)."""

    option: str
    setting: str | None = None
    label: Text | None = None
    toggle: bool = False
    number: tuple[int, int] | None = None
    choices: tuple[tuple[OptionValue, str], ...] = ()
    default: OptionValue | None = None
    on_phone: bool = False

    @property
    def offered(self) -> bool:
        """The host pages offer it (it has a control and a label)."""
        return self.label is not None and (
            self.toggle or self.number is not None or bool(self.choices))

    def described(self) -> dict[str, JSON]:
        """What the phone page and the host page build its control from."""
        out: dict[str, JSON] = {"key": self.option, "phone": self.on_phone}
        if self.label is not None:
            out["label"] = {"en": self.label.en, "cs": self.label.cs}
        if self.toggle:
            out["toggle"] = True
        if self.number is not None:
            out["number"] = list(self.number)
        if self.choices:
            out["choices"] = [[value, text] for value, text in self.choices]
        if self.default is not None:
            out["value"] = self.default
        return out


@dataclass(frozen=True)
class Setting:
    """A key of config/appliance.toml the game reads, as "section.key"
    ("timers.duplik_s"): its default, whose type is the setting's (a whole number, a
    number, true or false, text), and for a number the bounds it must keep. The box's
    config reads and checks it like its own settings (a bad value stops the start,
    naming the key); the file documents it."""

    path: str
    default: bool | int | float | str
    low: int | float | None = None
    high: int | float | None = None


def hourglass(setting: str) -> StartOption:
    """The hourglass of a timed game, 10 to 600 seconds (games/options.py `seconds`),
    from `setting`."""
    return StartOption("seconds", setting, Text("Hourglass (seconds)",
                                                "Přesýpací hodiny (sekundy)"),
                       number=(10, 600))


@dataclass(frozen=True)
class PrivateLook:
    """A seat without a phone must see something only it may see, on the shared screen,
    while the others look away (passing the device): `seat`, a `key` naming this one
    look (a look seen once is not asked for again), and who looks away (`away`: a seat,
    or None for everyone else)."""

    seat: Seat
    key: tuple[int | str, ...]
    away: Seat | None = None


PrivateLooks = Callable[[Mapping[str, Any], frozenset[Seat]], tuple[PrivateLook, ...]]
"""The public view of a state (what the kiosk's view carries) and the seats without a
phone -> the looks due now, in the order to ask them."""

PrivateText = Callable[[Mapping[str, Any]], Mapping[str, str] | None]
"""A seat's own view -> what it is shown in a private look, per language (None: nothing
now)."""


@dataclass(frozen=True)
class House:
    """Everything of a game that is not its rules. Every field has a default: a game that
    keeps no pictures, reads no setting and takes no pack declares nothing."""

    keepsakes: KeepsakeCollector | None = None
    settings: tuple[Setting, ...] = ()
    """The keys of config/appliance.toml the game brings (a key two games share, such as
    [timers] extended_factor, is declared by one of them)."""
    start_options: tuple[StartOption, ...] = ()
    decks: tuple[Deck, ...] = ()
    actions: ActionSchemas | None = None
    together: bool = False
    """The table plays together: its result is the table's (words guessed), not a ranking."""
    make_ahead: Callable[[Any], None] | None = None
    """What the game's views would compute on first sight, made ahead from the first
    state on the box's worker thread at start, off the loop that serves the phones."""
    make_after_move: Callable[[Any], None] | None = None
    """What the game's views would compute on first sight of the state a move made (ArtBox:
    the picture's new shape check), made on the store's writer thread once the move is
    committed and before the loop applies it, so that no view computes it on the loop."""
    no_screen: bool = False
    """The rules take the NO_SCREEN start option (games/core.py): they deal their private
    roles around seats without a phone (or pass the device to them). A game without it
    is not started while a seat made at the kiosk is at the table: that player could play
    no part, and the game might wait for them."""
    private_looks: PrivateLooks | None = None
    """Where the rules let everyone else look away: which seats without a phone must
    see something privately now (Broad Lines: an Artist at the kiosk, the word, while the
    Critic looks away), and `private_text` what."""
    private_text: PrivateText | None = None
    without_phone: Mapping[str, JSON] = field(default_factory=lambda: MappingProxyType({}))
    """Start options for a table where someone sits without a phone (Duplik on paper)."""
    from_the_tv: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Per language: what a player without a phone plays from the TV, what needs a phone."""
    wants: Mapping[str, Callable[[Any], Rules[Any]]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """Capabilities the game takes from the box: name -> the rules made with the box's
    helper (games/word_forms.py's WORD_FORMS -> Broad Lines with the stemming matcher)."""

    phone_script: str | None = None
    """The phone page's script for this game: an ES module that registers the game's
    screen with the page's games.js. A file name in `phone_files`, or without them in the
    box's static folder (appliance/web/static/, where the catalogued games' scripts sit
    beside the page's shared modules). The page loads what the server lists (/games.json);
    a game without one is shown by the page's generic screen."""
    phone_files: Path | None = None
    """The folder of the game's own phone files (its script, a stylesheet), served at
    /static/games/<id>/: its script imports the page's shared modules as
    "../../games.js"."""
    kiosk_screen: str | None = None
    """The module of the game's own kiosk screen, which registers it in the kiosk's
    GAME_SCREENS when imported; the box imports it when it starts. The catalogued games'
    screens are appliance/kiosk/<id>.py, which the kiosk imports itself."""

    def keep(self, states: Iterable[Any]) -> Keepsakes:
        """The keepsakes of a match whose states are `states` (none without a collector)."""
        if self.keepsakes is None:
            return Keepsakes()
        return self.keepsakes(states)


NOTHING: House = House()
"""The house of a game that declares none."""
