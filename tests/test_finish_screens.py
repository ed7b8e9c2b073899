"""Every game's finish on the kiosk, from the real last view of a game played to its end
through a Session: the game's own last screen stays up (its result in its own terms, its
last reveal, its art show) with the gallery's QR code and the host's two ways on."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from appliance.door.kiosk_games import KioskGames
from appliance.kiosk import GAME_SCREENS, KioskRenderer, artbox, luck_of_the_draw
from appliance.kiosk.artbox import artbox_screen
from appliance.kiosk.broad_lines import broad_lines_screen
from appliance.kiosk.duplik import duplik_screen
from appliance.kiosk.intents import FinishChoice
from appliance.kiosk.luck_of_the_draw import luck_screen
from appliance.kiosk.render import FINISH_STEP_S
from appliance.kiosk.theme import Metrics
from appliance.table.session import HOST, KIOSK, Session
from games import broad_lines, registry
from tests import screens
from tests.conftest import FakeClock
from tests.finish_play import play_to_the_finish
from tests.test_kiosk_layout import problems

SCREENSHOT_DIR = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))
SIZES = [(1920, 1080), (800, 480), (1080, 1920)]
KIOSK_SCREENS = {
    "broad-lines": broad_lines_screen,
    "duplik": duplik_screen,
    "luck-of-the-draw": luck_screen,
    "artbox": artbox_screen,
}


class Recording(KioskRenderer):
    """A renderer that remembers every text it set (a fresh one sets each text once)."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []

    def text(self, text: object, *args: Any, **kwargs: Any) -> pygame.Surface:
        self.said.append(str(text))
        return super().text(text, *args, **kwargs)

    def blit_text(self, surface: pygame.Surface, text: object, *args: Any,
                  **kwargs: Any) -> pygame.Rect:
        self.said.append(str(text))
        return super().blit_text(surface, text, *args, **kwargs)


@pytest.fixture(scope="module")
def display() -> Iterator[pygame.Surface]:
    with screens.open_display() as screen:
        yield screen


@pytest.fixture
def finished(request: pytest.FixtureRequest, session: Session,
             clock: FakeClock) -> Iterator[tuple[str, Session, FakeClock]]:
    game = request.param
    registry.load_all()
    with screens.screen_registered(game, KIOSK_SCREENS[game]):
        play_to_the_finish(session, clock, game, players=5)
        yield game, session, clock


def kiosk_view(session: Session) -> dict[str, Any]:
    """The session's view as the box's kiosk draws it: with its games' house facts."""
    return dict(KioskGames().decorate(session.view_for(KIOSK)))


def draw(game: str, view: dict[str, Any], size: tuple[int, int],
         now: float) -> tuple[pygame.Surface, Recording]:
    r = Recording()
    surface, _ = screens.render(game, size, view, r, now)
    return surface, r


@pytest.mark.parametrize("finished", list(KIOSK_SCREENS), indirect=True)
def test_the_finish_stays_with_its_result_gallery_and_ways_on(
    display: pygame.Surface, finished: tuple[str, Session, FakeClock]
) -> None:
    game, session, clock = finished
    view = kiosk_view(session)
    assert view["phase"] == "over"
    assert GAME_SCREENS[game] is KIOSK_SCREENS[game]
    for size in SIZES:
        surface, r = draw(game, view, size, clock())
        pygame.image.save(surface, SCREENSHOT_DIR / f"easel-{game}-finish-{size[0]}x{size[1]}.png")
        intents = [intent for _, intent in r.targets]
        assert FinishChoice(True) in intents and FinishChoice(False) in intents, size
        assert not r.canvases
        said = " | ".join(r.said)
        assert "Play again" in said and "Back to the lobby" in said
        assert "Take the art show home" in said  # beside the gallery's QR code
        assert "Next round" not in said and "starts the next round" not in said
        outcome = view["match"]["outcome"]
        names = {s["seat"]: s["name"] for s in view["match"]["seats"]}
        if game == "broad-lines":
            guessed = view["match"]["state"]["score"]
            assert f"Together: {guessed} word" in said
            rating = view["match"]["state"]["rating"]["en"]  # the rules' rating (wrapped)
            assert all(word in said for word in rating.split()), rating
            assert "Winner" not in said  # a team result, not a competition
        else:
            assert any(names[w] in said and "Winner" in said for w in outcome["winners"])
        if game == "artbox" and size == SIZES[0]:  # the last round's reveal, in full
            revealed = view["match"]["state"]["revealed"]
            assert revealed and all(f"“{info['word']['en']}”" in said for info in revealed)
    # The host's tap leads on; the finish stayed until then.
    session.leave_finish(HOST)
    lobby = kiosk_view(session)
    assert lobby["phase"] == "finished"
    _, r = draw(game, lobby, (1920, 1080), clock())
    said = " | ".join(r.said)
    if game == "broad-lines":  # the lobby's result banner reads as the team's too
        assert "Together:" in said and "Winner" not in said


@pytest.mark.parametrize("finished", ["luck-of-the-draw"], indirect=True)
def test_luck_of_the_draws_finish_reveals_whose_drawing_was_whose(
    display: pygame.Surface, finished: tuple[str, Session, FakeClock]
) -> None:
    game, session, clock = finished
    view = kiosk_view(session)
    state = view["match"]["state"]
    assert all(d.get("owner") is not None for d in state["gallery"])
    _, r = draw(game, view, (1920, 1080), clock())
    said = " | ".join(r.said)
    names = {s["seat"]: s["name"] for s in view["match"]["seats"]}
    for drawing in state["gallery"]:  # "Ada · green": the owner beside the chip
        assert f"{names[drawing['owner']]} · {drawing['en']}" in said
    gained = [seat for seat, g in state["gained"].items() if g["cards"] or g["halves"]]
    # Each player's gain ("+1½", drawn whole at the right), then the name beside it.
    assert gained and all(re.search(rf"\+[0-9½]+ \| {re.escape(names[int(seat)])}\b", said)
                          for seat in gained)


@pytest.mark.parametrize("finished", ["duplik"], indirect=True)
def test_duplik_finish_shows_the_art_show_of_every_round(
    display: pygame.Surface, finished: tuple[str, Session, FakeClock]
) -> None:
    game, session, _clock = finished
    view = kiosk_view(session)
    shows = view["match"]["state"]["art_show"]
    assert len(shows) == view["match"]["state"]["rounds"] > 1
    assert all(show["scene_svg"].lstrip().startswith("<") for show in shows)
    r = KioskRenderer()
    start = view["match"]["finished_at"] + 0.5  # the last round first, then from the first
    for n in range(len(shows)):
        now = start + n * FINISH_STEP_S
        assert r.needs_redraw(view, now, (1920, 1080))  # the next round's turn
        recording = Recording()
        surface, _ = screens.render(game, (1920, 1080), view, recording, now)
        said = " | ".join(recording.said)
        shown = shows[(len(shows) - 1 + n) % len(shows)]
        assert f"Round {shown['round']} of {len(shows)}" in said
        assert shown["title"]["en"] in said
        r.mark_drawn(view, now, (1920, 1080))
        if n == 0:
            pygame.image.save(surface, SCREENSHOT_DIR / "easel-duplik-finish-round.png")


# -- pause ---------------------------------------------------------------------------------


def test_a_paused_game_shows_a_banner_stands_still_and_takes_no_ink(
    display: pygame.Surface, session: Session, clock: FakeClock
) -> None:
    registry.load_all()
    game = "luck-of-the-draw"
    with screens.screen_registered(game, KIOSK_SCREENS[game]):
        play_to_the_finish(session, clock, game, players=4,
                           until=lambda state: state.phase == "drawing")
        clock.advance(5)
        session.pause(HOST)
        view = kiosk_view(session)
        assert view["match"]["paused"] and view["match"]["deadline"]["at"] is None
        surface, r = draw(game, view, (1920, 1080), clock())
        pygame.image.save(surface, SCREENSHOT_DIR / "easel-kiosk-paused.png")
        said = " | ".join(r.said)
        assert "Paused" in said and "stand still" in said
        assert not r.canvases and not [i for _, i in r.targets if type(i).__name__ != "HostCorner"]
        # The hourglass stands still: nothing to redraw while time passes.
        for later in (1.0, 30.0, 300.0):
            assert not r.needs_redraw(view, clock() + later, (1920, 1080))
        # It says which key resumes (issue 31), whole at 800x480 too, in either language.
        words = " ".join(r.said)  # (the lines of a wrapped sentence, joined)
        assert "Play/Pause on the remote" in words and "P on a keyboard" in words
        for lang, key in (("en", "P on a keyboard, or the host menu."),
                          ("cs", "P na klávesnici nebo v menu hostitele.")):
            surface, r = draw(game, dict(view, lang=lang), (800, 480), clock())
            words = " ".join(r.said)
            assert ("Pozastaveno" if lang == "cs" else "Paused") in words
            assert key in words, words
            pygame.image.save(surface, SCREENSHOT_DIR / f"easel-kiosk-paused-{lang}-800x480.png")


def test_the_kiosk_ink_takes_no_stroke_while_paused(display: pygame.Surface) -> None:
    from tests.test_broad_lines_screens import in_phase

    game = in_phase("panel")  # the Artist draws on the table's own screen
    with screens.screen_registered("broad-lines", KIOSK_SCREENS["broad-lines"]):
        view = game.view()
        _, r = draw("broad-lines", view, (1920, 1080), 100.0)
        assert r.canvases, "the table's drawing area while the game runs"
        rect = r.canvases[0][0]
        view["match"]["paused"] = True
        view["version"] += 1
        surface, r = draw("broad-lines", view, (1920, 1080), 100.0)
        assert r.canvas_at(rect.center) is None and r.hit(rect.center) is None
        pygame.image.save(surface, SCREENSHOT_DIR / "easel-kiosk-paused-ink.png")


def test_every_character_of_the_finish_and_pause_is_in_the_kiosk_fonts() -> None:
    from appliance.kiosk.fonts import Fonts
    from appliance.kiosk.host_menu import WORDS
    from appliance.kiosk.text import _entry

    keys = ["finish_again", "finish_lobby", "finish_hint", "paused", "paused_help",
            "gallery_title", "gallery_help", "handover", "lotd.artshow_round",
            "lotd.round_gains", "artbox.artshow_round"]
    texts = ["·“”½"]
    for lang in ("en", "cs"):
        for key in keys:
            entry = _entry(lang, key)
            texts += list(entry.values()) if isinstance(entry, dict) else [entry]
        entry = _entry(lang, "together")
        texts += list(entry.values()) if isinstance(entry, dict) else [entry]
        texts += [WORDS[lang]["again"], WORDS[lang]["lobby"]]
    pygame.font.init()
    fonts = Fonts()
    for bold in (False, True):
        font = fonts.font(40, bold)
        missing = pygame.image.tobytes(font.render("\ue000", True, (0, 0, 0)), "RGBA")
        for ch in sorted(set("".join(texts)) - set(" {}")):
            glyph = pygame.image.tobytes(font.render(ch, True, (0, 0, 0)), "RGBA")
            assert glyph != missing, f"{ch!r} (U+{ord(ch):04X}) is not in the kiosk's font"


def test_a_stroke_under_a_finger_when_the_host_pauses_is_dropped_not_sent() -> None:
    from appliance.kiosk import Kiosk
    from appliance.kiosk.display import DisplayChoice
    from tests.test_broad_lines_screens import in_phase

    game = in_phase("panel")
    kiosk = Kiosk(size=(1280, 720), choice=DisplayChoice("dummy", False, True, "test"))
    try:
        with screens.screen_registered("broad-lines", KIOSK_SCREENS["broad-lines"]):
            view = game.view()
            kiosk.update(view, 100.0)
            rect = kiosk.renderer.canvases[0][0]
            x, y = rect.center
            kiosk.pointer_down("finger", (x, y), 1.0)
            for i in range(1, 8):
                kiosk.pointer_move("finger", (x + 9 * i, y + 4 * i), 1.0 + i / 50)
            view["match"]["paused"] = True
            view["version"] += 1
            kiosk.update(view, 101.0)
            assert kiosk.pointer_up("finger", (x + 80, y + 40), 1.3) is None
            kiosk.pointer_down("finger", (x, y), 2.0)  # and no new stroke begins
            assert kiosk.pointer_up("finger", (x + 50, y), 2.2) is None
    finally:
        kiosk.close()


@pytest.mark.parametrize("finished", ["luck-of-the-draw", "artbox"], indirect=True)
def test_the_finish_steps_through_the_art_show_of_the_whole_game(
    display: pygame.Surface, finished: tuple[str, Session, FakeClock]
) -> None:
    """Luck of the Draw and ArtBox, as Duplik: the last round's reveal first, then every
    round from the first, each with its drawings, its words and its artists."""
    game, session, _clock = finished
    view = session.view_for(KIOSK)
    shows = view["match"]["state"]["art_show"]
    assert len(shows) > 1
    names = {s["seat"]: s["name"] for s in view["match"]["seats"]}
    r = KioskRenderer()
    start = view["match"]["finished_at"] + 0.5
    for n in range(3):  # the last round, the first, the second
        now = start + n * FINISH_STEP_S
        assert r.needs_redraw(view, now, (1920, 1080))  # the next round's turn
        recording = Recording()  # fresh: every text is set again
        surface, _ = screens.render(game, (1920, 1080), view, recording, now)
        said = " | ".join(recording.said)
        shown = shows[(len(shows) - 1 + n) % len(shows)]
        assert f"Art show · round {shown['round']} of {len(shows)}" in said
        if game == "luck-of-the-draw":
            assert f": {shown['subject']['en']}" in said
            for drawing in shown["gallery"]:  # "Ada · green": the artist beside the chip
                assert f"{names[drawing['owner']]} · {drawing['en']}" in said
        else:
            for info in shown["revealed"]:  # the word and the artist under each picture
                assert f"“{info['word']['en']}”" in said and names[info["owner"]] in said
        r.mark_drawn(view, now, (1920, 1080))
        if n < 2:
            pygame.image.save(surface, SCREENSHOT_DIR / f"easel-{game}-finish-step{n}.png")
    # Every round of the art show fits the 7-inch panel and the TV (issue 19's checks).
    for size in ((800, 480), (1920, 1080)):
        fits = KioskRenderer()
        fits.record_layout = True
        for n in range(len(shows)):
            screens.render(game, size, view, fits, start + n * FINISH_STEP_S)
            assert fits.layout is not None
            assert not problems(fits.layout, fits, Metrics.for_size(size)), (size, n)
    # The pictures of the rounds shown are painted once: a second cycle paints none.
    cache = (luck_of_the_draw if game == "luck-of-the-draw" else artbox).caches_of(r).sheets
    screens.render(game, (1920, 1080), view, r, start)
    for n in range(len(shows)):
        screens.render(game, (1920, 1080), view, r, start + n * FINISH_STEP_S)
    painted = cache.misses
    for n in range(len(shows)):
        screens.render(game, (1920, 1080), view, r, start + n * FINISH_STEP_S)
    assert cache.misses == painted


def test_the_kiosk_counts_down_a_seat_handed_over(
    display: pygame.Surface, session: Session, clock: FakeClock
) -> None:
    """The newcomer the host freed a seat for sees whose seat, the code to join with and
    the time left, once a second; then the banner goes with the wait."""
    from tests.test_session_host import _duplik_at_evaluation

    registry.load_all()
    with screens.screen_registered("duplik", KIOSK_SCREENS["duplik"]):
        _, portrayer = _duplik_at_evaluation(session, 4)
        artist = next(s for s in range(4) if s != portrayer)
        session.offer_seat(HOST, artist)
        clock.advance(18)
        view = session.view_for(KIOSK)
        surface, r = draw("duplik", view, (800, 480), clock())
        pygame.image.save(surface, SCREENSHOT_DIR / "easel-kiosk-handover.png")
        said = " ".join(r.said)  # the banner's two lines, where one would cut it
        name = f"Player {artist}"
        assert f"{name}'s seat is free: join with the code {view['room']} within 0:42" in said
        assert r.needs_redraw(view, clock() + 1.0, (800, 480))  # the next second
        session.pause(HOST)
        _, r = draw("duplik", session.view_for(KIOSK), (800, 480), clock())
        assert "seat is free" not in " | ".join(r.said)  # paused: the banner of the pause
        session.resume(HOST)
        clock.advance(43)
        assert session.tick()
        _, r = draw("duplik", session.view_for(KIOSK), (800, 480), clock())
        assert "seat is free" not in " | ".join(r.said)


def test_the_kiosk_says_who_is_away_and_counts_down(
    display: pygame.Surface, session: Session, clock: FakeClock
) -> None:
    """Dee closed her tab at the verdicts: the kiosk names her, away, and the time left
    before the game goes on without her; then that it went on; then nothing once she is
    back (issue 27)."""
    from appliance.table.session import Viewer
    from tests.test_session_host import _duplik_at_evaluation

    registry.load_all()
    with screens.screen_registered("duplik", KIOSK_SCREENS["duplik"]):
        _, portrayer = _duplik_at_evaluation(session, 4)
        for seat in range(4):
            session.attach(Viewer("player", seat))
        dee = next(s for s in range(4) if s != portrayer)
        session.detach(Viewer("player", dee))
        table = session.config.table
        clock.advance(table.away_after_s + 5)
        session.tick()
        for size in ((800, 480), (1920, 1080)):
            surface, r = draw("duplik", session.view_for(KIOSK), size, clock())
            pygame.image.save(surface, SCREENSHOT_DIR / f"easel-kiosk-away-{size[0]}.png")
            said = " ".join(r.said)
            assert (f"Player {dee} is away: the game goes on without them in "
                    f"0:{table.away_wait_s - 5:02d}") in said, said
        clock.advance(table.away_wait_s)
        session.tick()
        _, r = draw("duplik", session.view_for(KIOSK), (800, 480), clock())
        assert f"Player {dee} is away: the game goes on" in " ".join(r.said)
        session.attach(Viewer("player", dee))
        _, r = draw("duplik", session.view_for(KIOSK), (800, 480), clock())
        assert "is away" not in " ".join(r.said)


# -- a game the host ended early -----------------------------------------------------------


def _leads(game: str) -> Any:
    """`until` for play_to_the_finish: ending the game now would keep a score."""
    if game == "broad-lines":
        return lambda state: len(broad_lines.guessed_words(state)) >= 2
    return lambda state: bool(state.phase == "result")  # Luck of the Draw: a card won


@pytest.mark.parametrize("game", ["broad-lines", "luck-of-the-draw"])
def test_a_game_ended_early_shows_its_result_and_says_so(
    display: pygame.Surface, session: Session, clock: FakeClock, game: str
) -> None:
    registry.load_all()
    with screens.screen_registered(game, KIOSK_SCREENS[game]):
        play_to_the_finish(session, clock, game, players=4, until=_leads(game))
        session.end_match(HOST)
        view = kiosk_view(session)
        assert view["phase"] == "over" and view["match"]["outcome"]["summary"] == "ended_early"
        for size in SIZES:
            surface, r = draw(game, view, size, clock())
            pygame.image.save(surface, SCREENSHOT_DIR /
                              f"easel-{game}-ended-early-{size[0]}x{size[1]}.png")
            said = " | ".join(r.said)
            assert "ended early" in said and "Play again" in said
            if game == "broad-lines":
                guessed = view["match"]["state"]["score"]
                assert guessed >= 2 and f"Together: {guessed} words guessed" in said
                rating = view["match"]["state"]["rating"]["en"]
                assert all(word in said for word in rating.split()), rating
            else:
                names = {s["seat"]: s["name"] for s in view["match"]["seats"]}
                winners = view["match"]["outcome"]["winners"]
                assert winners and all(names[w] in said for w in winners)
        _, r = draw(game, dict(view, lang="cs"), (1920, 1080), clock())
        assert "ukončeno předčasně" in " | ".join(r.said)


# -- a game played together, on every screen that shows its result (issue 31) --------------


@pytest.mark.parametrize("early", [False, True], ids=["to-its-end", "ended-early"])
def test_a_game_played_together_never_names_winners_on_any_screen(
    display: pygame.Surface, session: Session, clock: FakeClock, early: bool
) -> None:
    """Broad Lines' finish, the host menu over it, the lobby's banner and the idle
    lobby's list of today's games say the table's count (and the rules' rating where the
    view has it), "ended early" when the host ended it, and never "Winner": every seat
    of a cooperative game 'won', so naming them says nothing (the list of today's games
    said 'Broad Lines: Ada, Bořek, Cyril, Dana, Emil' under "Today's winners")."""
    from appliance.table.lobby_history import LobbyHistory
    from tests.test_kiosk_layout import _with_menu

    registry.load_all()
    game = "broad-lines"
    with screens.screen_registered(game, KIOSK_SCREENS[game]):
        play_to_the_finish(session, clock, game, players=5,
                           until=_leads(game) if early else None)
        if early:
            session.end_match(HOST)
        finish = kiosk_view(session)
        guessed = finish["match"]["state"]["score"]
        rating = finish["match"]["state"]["rating"]
        session.leave_finish(HOST)
        lobby = kiosk_view(session)
        records = session.store.finished_matches(since=0)
        steps = LobbyHistory(session, clock, 8.0)._steps_of(records, clock())
        today = next(step for step in steps if step["kind"] == "winners")
        count = {"en": f"Together: {guessed} word", "cs": "Společně: uhodnut"}
        early_words = {"en": "ended early", "cs": "ukončeno předčasně"}
        screens_shown = {"finish": finish, "host menu": _with_menu(finish),
                         "lobby": lobby, "today": {**lobby, "history": today}}
        for (name, view), lang, size in ((s, lang, size) for s in screens_shown.items()
                                         for lang in ("en", "cs")
                                         for size in ((800, 480), (1920, 1080))):
            surface, r = draw(game, {**view, "lang": lang}, size, clock())
            pygame.image.save(surface, SCREENSHOT_DIR / f"easel-together-{name.replace(' ', '-')}"
                              f"-{'early' if early else 'end'}-{lang}-{size[0]}.png")
            said = " ".join(r.said)  # (a wrapped result's lines, joined)
            where = (name, lang, size)
            assert "winner" not in said.lower() and "vítěz" not in said.lower(), where
            if name == "today" and size == (800, 480):
                continue  # no room for the list under the seats on the 7-inch panel
            assert count[lang] in said and (early_words[lang] in said) is early, where
            if name == "today":
                assert f"{today['results'][0]['when']}  Broad Lines · {count[lang]}" in said
            elif name == "lobby" and size == (1920, 1080):  # the rules' verdict, whole
                # (the 7-inch panel has no room for it above the seats: the title is said)
                assert rating[lang] in said, where
