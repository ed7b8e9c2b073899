"""The kiosk's display: which DRM card kmsdrm opens (fake /sys/class/drm trees of a Pi 5
with its DSI card beside vc4 and v3d, numbered differently from boot to boot), which mode a
fullscreen screen is asked for (a 4K TV, a Pi 3), and the window's size in a real X11
window under Xvfb, with the screenshot of the real frame.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from appliance.kiosk import Kiosk
from appliance.kiosk.display import (
    KMSDRM_INDEX_VARIABLE,
    RENDER_DRIVER_VARIABLE,
    DisplayChoice,
    DisplayError,
    choose_card,
    detect_card,
    drm_connectors,
    fit_window,
    fullscreen_size,
    is_small_pi,
    open_display,
    read_model,
)
from appliance.system.config import ConfigError, load
from tests.process import free_port
from tests.test_kiosk import make_view
from tests.xvfb import need_xvfb, xvfb

REPO = Path(__file__).resolve().parents[1]

# --- the DRM card: fake sysfs trees ------------------------------------------------------


def fake_sysfs(root: Path, cards: dict[int, dict[str, str]]) -> Path:
    """A /sys/class/drm as the kernel lays it out: cardN, cardN-<connector>/status,
    renderD128, version. `cards` maps a card number to {connector: status}."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "version").write_text("drm 1.1.0 20060810\n")
    (root / "renderD128").mkdir()
    for card, connectors in cards.items():
        (root / f"card{card}").mkdir()
        (root / f"card{card}" / "dev").write_text(f"226:{card}\n")
        for name, status in connectors.items():
            entry = root / f"card{card}-{name}"
            entry.mkdir()
            (entry / "status").write_text(status + "\n")
            (entry / "enabled").write_text("enabled\n" if status == "connected" else "disabled\n")
    return root


VC4 = {"HDMI-A-1": "disconnected", "HDMI-A-2": "disconnected", "Writeback-1": "unknown"}
V3D: dict[str, str] = {}  # render only: no connectors
DSI = {"DSI-1": "connected"}


def pi5_with_dsi(root: Path, order: tuple[str, str, str]) -> Path:
    """A Pi 5 with the 7" display on DSI and no HDMI screen, cards in `order`."""
    parts = {"vc4": VC4, "v3d": V3D, "rp1-dsi": DSI}
    return fake_sysfs(root, {i: parts[name] for i, name in enumerate(order)})


@pytest.mark.parametrize(
    ("order", "card"),
    [
        (("rp1-dsi", "v3d", "vc4"), 0),
        (("v3d", "vc4", "rp1-dsi"), 2),
        (("vc4", "rp1-dsi", "v3d"), 1),
    ],
)
def test_the_dsi_card_is_found_whatever_its_number(tmp_path: Path, order, card) -> None:
    root = pi5_with_dsi(tmp_path / "drm", order)
    for wanted in ("DSI", "auto", "DSI-1", "dsi"):
        chosen = detect_card(wanted, root)
        assert (chosen.card, chosen.connector) == (card, "DSI-1"), wanted
        assert f"DSI-1 on card{card} is connected" in chosen.reason


def test_the_tv_profile_takes_hdmi_even_with_a_dsi_screen_attached(tmp_path: Path) -> None:
    root = fake_sysfs(tmp_path / "drm", {
        0: DSI, 1: V3D, 2: {**VC4, "HDMI-A-2": "connected"},
    })
    chosen = detect_card("HDMI", root)
    assert (chosen.card, chosen.connector) == (2, "HDMI-A-2")
    assert "display.connector = HDMI" in chosen.reason
    # A touch profile on the same box takes the DSI panel.
    assert detect_card("DSI", root).card == 0
    # "auto" prefers DSI; a kernel name picks exactly that port.
    assert detect_card("auto", root).card == 0
    assert detect_card("HDMI-A-2", root).connector == "HDMI-A-2"


def test_a_wanted_output_without_a_screen_falls_back_to_the_connected_one(tmp_path) -> None:
    root = pi5_with_dsi(tmp_path / "drm", ("v3d", "rp1-dsi", "vc4"))
    chosen = detect_card("HDMI", root)
    assert (chosen.card, chosen.connector) == (1, "DSI-1")
    assert "no HDMI screen is connected; using DSI-1 on card1 instead" in chosen.reason


def test_nothing_connected_names_no_card_and_says_what_was_found(tmp_path: Path) -> None:
    root = fake_sysfs(tmp_path / "drm", {0: V3D, 1: VC4})
    chosen = detect_card("HDMI", root)
    assert chosen.card is None
    assert "no screen is connected" in chosen.reason
    assert "card1-HDMI-A-1 disconnected" in chosen.reason
    assert "Writeback" not in chosen.reason, "vc4's writeback output is not a screen"
    # A tree without connectors at all (no KMS driver loaded).
    empty = fake_sysfs(tmp_path / "bare", {})
    assert "vc4-kms-v3d" in detect_card("auto", empty).reason
    assert "vc4-kms-v3d" in detect_card("auto", tmp_path / "missing").reason


def test_connectors_are_read_in_card_order_and_odd_entries_are_ignored(tmp_path) -> None:
    root = fake_sysfs(tmp_path / "drm", {10: {"HDMI-A-1": "connected"}, 2: DSI})
    (root / "card3-broken").mkdir()  # no status file
    (root / "ttm").mkdir()
    found = drm_connectors(root)
    assert [(c.card, c.name, c.status) for c in found] == [
        (2, "DSI-1", "connected"), (10, "HDMI-A-1", "connected")]
    # Only "connected" counts: an "unknown" DPI output is not a screen to pick.
    assert choose_card("auto", []).card is None


def test_kmsdrm_is_told_the_card_and_the_environment_is_restored_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """On this machine kmsdrm cannot open (no /dev/dri): the error carries the card search's
    finding, the log names the chosen card, and nothing is left in the environment."""
    if Path("/dev/dri").exists():
        pytest.skip("this machine has DRM devices: kmsdrm might open one")
    monkeypatch.delenv(KMSDRM_INDEX_VARIABLE, raising=False)
    root = pi5_with_dsi(tmp_path / "drm", ("v3d", "vc4", "rp1-dsi"))
    caplog.set_level(logging.INFO, "appliance.kiosk.display")
    kmsdrm = DisplayChoice("kmsdrm", True, False, "test")
    with pytest.raises(DisplayError, match=r"tried /dev/dri/card2: DSI-1 on card2 is connected"):
        open_display(kmsdrm, (800, 480), 0, "DSI", sysfs=root)
    assert "kmsdrm on /dev/dri/card2" in caplog.text
    assert KMSDRM_INDEX_VARIABLE not in os.environ
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"

    nothing = fake_sysfs(tmp_path / "dark", {0: VC4})
    with pytest.raises(DisplayError, match="no screen is connected"):
        open_display(kmsdrm, (800, 480), 0, "HDMI", sysfs=nothing)
    assert "no screen is connected (card0-HDMI-A-1 disconnected" in caplog.text

    # An index the operator set by hand wins over the search.
    monkeypatch.setenv(KMSDRM_INDEX_VARIABLE, "7")
    with pytest.raises(DisplayError):
        open_display(kmsdrm, (800, 480), 0, "DSI", sysfs=root)
    assert "card7, as SDL_KMSDRM_DEVICE_INDEX in the environment says" in caplog.text
    assert os.environ[KMSDRM_INDEX_VARIABLE] == "7"


def test_kmsdrm_asks_sdl_for_its_gles2_renderer_unless_the_environment_names_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SDL's first renderer on kmsdrm is desktop OpenGL, which on Mesa's GBM/EGL draws no
    texture (the kiosk's frame was black in make boot-check's VM): SDL is told GLES 2
    before its video starts, and the environment is left as found when it fails."""
    seen: list[str | None] = []

    def video_starts() -> None:
        seen.append(os.environ.get(RENDER_DRIVER_VARIABLE))
        raise pygame.error("no screen here")

    monkeypatch.setattr(pygame.display, "init", video_starts)
    monkeypatch.delenv(KMSDRM_INDEX_VARIABLE, raising=False)
    monkeypatch.delenv(RENDER_DRIVER_VARIABLE, raising=False)
    root = pi5_with_dsi(tmp_path / "drm", ("v3d", "vc4", "rp1-dsi"))
    kmsdrm = DisplayChoice("kmsdrm", True, False, "test")
    with pytest.raises(DisplayError, match="no screen here"):
        open_display(kmsdrm, (800, 480), 0, "DSI", sysfs=root)
    assert seen == ["opengles2"]
    assert RENDER_DRIVER_VARIABLE not in os.environ
    # An operator's choice wins; and off kmsdrm SDL's own choice stays.
    monkeypatch.setenv(RENDER_DRIVER_VARIABLE, "software")
    with pytest.raises(DisplayError):
        open_display(kmsdrm, (800, 480), 0, "DSI", sysfs=root)
    monkeypatch.delenv(RENDER_DRIVER_VARIABLE)
    with pytest.raises(DisplayError):
        open_display(DisplayChoice("x11", False, False, "test"), (800, 480))
    assert seen == ["opengles2", "software", None]


@pytest.mark.parametrize("value", ["auto", "DSI", "HDMI", "hdmi", "HDMI-A-2", "DSI-1",
                                   "Composite-1", "Virtual-1"])
def test_the_connector_setting_takes_kinds_and_kernel_names(value: str) -> None:
    assert load(files=[], env={"EASEL_DISPLAY_CONNECTOR": value}).display.connector == value


@pytest.mark.parametrize("value", ["HDMI A", "", "card1-HDMI-A-1/status", "-HDMI", "x" * 40,
                                   "HDMI-B", "HDMI-3", "HDMI-A-0", "VGA", "DSI1"])
def test_a_bad_connector_setting_is_refused_naming_what_is_allowed(value: str) -> None:
    # "HDMI-B" (no Pi has dual-link HDMI) used to pass, then only ever fell back to
    # another screen: a name no Pi has is refused at the start, with the names it has.
    with pytest.raises(ConfigError,
                       match=r"display.connector .* \"auto\", or a Pi's screen output.*HDMI-A-2"):
        load(files=[], env={"EASEL_DISPLAY_CONNECTOR": value})


def pi4_two_hdmi(root: Path, ids: tuple[int, int] | None = None) -> Path:
    """A Pi 4 with a screen on each HDMI port (and DSI connected too), on one vc4 card;
    `ids`: the connectors' kernel ids as sysfs (kernel 6.x) has them, HDMI-A-1's first."""
    root = fake_sysfs(root, {0: V3D, 1: {"DSI-1": "connected", "HDMI-A-1": "connected",
                                         "HDMI-A-2": "connected", "Writeback-1": "unknown"}})
    if ids is not None:
        for name, number in zip(("HDMI-A-1", "HDMI-A-2"), ids, strict=True):
            (root / f"card1-{name}" / "connector_id").write_text(f"{number}\n")
        (root / "card1-DSI-1" / "connector_id").write_text("40\n")
        (root / "card1-Writeback-1" / "connector_id").write_text("50\n")
    return root


def test_the_configured_connector_is_opened_as_its_sdl_display(tmp_path: Path) -> None:
    """SDL's kmsdrm makes one display per connected connector of the card, in the kernel's
    connector order; the kiosk opens the configured one's, not always display 0."""
    root = pi4_two_hdmi(tmp_path / "drm")
    by_name = {c: detect_card(c, root) for c in ("DSI", "HDMI-A-1", "HDMI-A-2", "HDMI")}
    assert {c: (k.card, k.connector, k.display) for c, k in by_name.items()} == {
        "DSI": (1, "DSI-1", 0), "HDMI-A-1": (1, "HDMI-A-1", 1), "HDMI-A-2": (1, "HDMI-A-2", 2),
        "HDMI": (1, "HDMI-A-1", 1)}
    assert "SDL display 2" in by_name["HDMI-A-2"].reason
    # The kernel's ids order SDL's displays where sysfs gives them (DSI last here); the
    # writeback output is never one of them.
    ids = pi4_two_hdmi(tmp_path / "ids", ids=(33, 31))
    assert [detect_card(c, ids).display for c in ("HDMI-A-2", "HDMI-A-1", "DSI-1")] == [0, 1, 2]
    # A disconnected port makes no display: HDMI-A-2 is SDL's display 1 then.
    (root / "card1-HDMI-A-1" / "status").write_text("disconnected\n")
    assert detect_card("HDMI-A-2", root).display == 1


def test_the_display_index_reaches_sdl_and_a_missing_one_falls_back_to_0(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """What the card search chose is the display SDL is asked for (fullscreen modes, the
    window, its position); an index SDL does not have opens display 0 and says so."""
    from appliance.kiosk import display as display_module

    monkeypatch.setattr(display_module, "_choose_kmsdrm_card", lambda *_: ("", 1))
    asked: list[object] = []
    def list_modes(depth: int, flags: int, display: int = 0) -> int:
        asked.append(display)
        return -1  # any size goes

    monkeypatch.setattr(pygame.display, "list_modes", list_modes)
    monkeypatch.setattr(pygame.display, "get_num_displays", lambda: 2)
    windows: list[dict[str, object]] = []

    class Window:
        def __init__(self, title: str, size: tuple[int, int], **kw: object) -> None:
            windows.append(kw)
            self.size = size

    monkeypatch.setattr(pygame, "Window", Window)
    monkeypatch.setattr(display_module, "_opened", lambda *_: None)
    # kmsdrm's card search runs for this choice; SDL itself stays on the dummy driver.
    choice = DisplayChoice("kmsdrm", True, False, "test")
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    monkeypatch.setattr(pygame.display, "init", lambda: None)
    display_module.open_window(choice, (800, 480), 0, "HDMI-A-2")
    assert asked == [1]
    assert windows[0]["position"] == (0x1FFF0001, 0x1FFF0001)
    monkeypatch.setattr(pygame.display, "get_num_displays", lambda: 1)
    caplog.set_level(logging.WARNING, "appliance.kiosk.display")
    display_module.open_window(choice, (800, 480), 0, "HDMI-A-2")
    assert asked[-1] == 0 and "not display 1; using display 0" in caplog.text


# --- the fullscreen mode --------------------------------------------------------------

TV_4K = [(3840, 2160), (2560, 1440), (1920, 1080), (1280, 720), (720, 576)]


def test_a_4k_tv_is_asked_for_the_profiles_mode() -> None:
    mode, why = fullscreen_size((1920, 1080), TV_4K, "Raspberry Pi 5 Model B Rev 1.0")
    assert mode == (1920, 1080) and "as configured" in why
    # A screen without that mode keeps its own (set_mode((0, 0))), and the log says so.
    mode, why = fullscreen_size((1920, 1080), [(1024, 768), (800, 600)])
    assert mode is None
    assert "does not offer 1920x1080 (offers 1024x768, 800x600)" in why
    # A portrait panel turned to landscape asks for the panel's own, upright, mode.
    assert fullscreen_size((720, 1280), [(720, 1280)])[0] == (720, 1280)
    assert fullscreen_size((800, 480), -1)[0] == (800, 480)


@pytest.mark.parametrize(
    "model",
    ["Raspberry Pi 3 Model B Plus Rev 1.3", "Raspberry Pi Zero 2 W Rev 1.0",
     "Raspberry Pi 3 Model A Plus Rev 1.0"],
)
def test_a_pi_3_or_zero_2_w_asks_a_tv_for_720p(model: str) -> None:
    assert is_small_pi(model)
    mode, why = fullscreen_size((1920, 1080), TV_4K, model)
    assert mode == (1280, 720) and model in why
    assert fullscreen_size((1080, 1920), [(720, 1280)], model)[0] == (720, 1280)
    # The 7" display's own 800x480 is smaller than that: kept.
    assert fullscreen_size((800, 480), [(800, 480)], model)[0] == (800, 480)


@pytest.mark.parametrize(
    "model", ["Raspberry Pi 4 Model B Rev 1.5", "Raspberry Pi 5 Model B Rev 1.0",
              "Raspberry Pi 400 Rev 1.0", "Raspberry Pi Compute Module 4 Rev 1.1", ""])
def test_bigger_pis_keep_1080p(model: str) -> None:
    assert not is_small_pi(model)
    assert fullscreen_size((1920, 1080), TV_4K, model)[0] == (1920, 1080)


def test_the_model_is_read_from_the_device_tree_file(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\x00")
    assert read_model(model) == "Raspberry Pi Zero 2 W Rev 1.0"
    assert read_model(tmp_path / "absent") == ""


# --- the window, in a real X11 window under Xvfb ----------------------------------------


def test_a_window_is_never_shrunk_by_a_fixed_factor() -> None:
    assert fit_window((1920, 1080), (1920, 1080)) == (1920, 1080)
    assert fit_window((800, 480), (1920, 1080)) == (800, 480)
    assert fit_window((1920, 1080), (1366, 768)) == (1365, 768)
    assert fit_window((1080, 1920), (1920, 1080)) == (607, 1080)
    assert fit_window((1920, 1080), None) == (1920, 1080)


@pytest.fixture
def x11(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[str]:
    """A real X server of the size the test names (default 1920x1080); SDL's x11 driver."""
    need_xvfb()
    width, height = getattr(request, "param", (1920, 1080))
    with xvfb(width, height) as server:
        monkeypatch.setenv("DISPLAY", server.display)
        monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
        try:
            yield server.display
        finally:
            pygame.display.quit()


X11_WINDOW = DisplayChoice("x11", False, False, "test: a desktop window")
X11_FULLSCREEN = DisplayChoice("x11", True, False, "test: fullscreen on the desktop")


def shot_size(kiosk: Kiosk, tmp_path: Path) -> tuple[int, int]:
    path = tmp_path / "shot.png"
    kiosk.screenshot(path)
    return pygame.image.load(str(path)).get_size()


def test_the_window_opens_at_the_configured_size_on_a_desktop_that_size(x11, tmp_path) -> None:
    kiosk = Kiosk((1920, 1080), 0, X11_WINDOW)
    try:
        assert pygame.display.get_driver() == "x11"
        assert pygame.display.get_window_size() == (1920, 1080)
        assert kiosk.update(make_view(), 0.0)
        assert shot_size(kiosk, tmp_path) == (1920, 1080)
        # The frame reaches the whole window: its bottom-right pixel is the lobby's, not a
        # black border around a smaller picture.
        assert kiosk.screen.get_at((1919, 1079)) == kiosk.frame.get_at((1919, 1079))
    finally:
        kiosk.close()


@pytest.mark.parametrize("x11", [(1366, 768)], indirect=True)
def test_a_window_bigger_than_the_desktop_takes_the_desktop(x11, tmp_path) -> None:
    kiosk = Kiosk((1920, 1080), 0, X11_WINDOW)
    try:
        assert pygame.display.get_window_size() == (1365, 768)
        kiosk.update(make_view(), 0.0)
        assert shot_size(kiosk, tmp_path) == (1365, 768)
    finally:
        kiosk.close()


def test_fullscreen_sets_the_named_mode_or_keeps_the_screens(
    x11, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "appliance.kiosk.display")
    screen = open_display(X11_FULLSCREEN, (1920, 1080))
    assert screen.get_size() == (1920, 1080)
    assert "1920x1080 as configured" in caplog.text
    pygame.display.quit()
    # Xvfb offers only its own 1920x1080: a 1280x720 profile keeps the screen's mode.
    screen = open_display(X11_FULLSCREEN, (1280, 720))
    assert screen.get_size() == (1920, 1080)
    assert "does not offer 1280x720" in caplog.text


@pytest.mark.parametrize("rotation", [90, 270])
def test_a_rotated_window_presented_by_sdls_renderer_shows_the_frame_turned(
    x11, tmp_path: Path, rotation: int
) -> None:
    """SDL's renderer on a real X11 window (OpenGL; Mesa's software rasteriser here, the
    GPU on a Pi): the whole frame and then one finger's ink land turned, pixel for pixel,
    where a tap maps back to; `easel screenshot` stays the upright frame."""
    from appliance.kiosk.present import RendererPresenter
    from appliance.kiosk.rotation import rotate_frame

    kiosk = Kiosk((800, 480), rotation, X11_WINDOW, present="renderer")
    try:
        assert isinstance(kiosk.presenter, RendererPresenter)
        assert kiosk.display_size == (480, 800) and kiosk.size == (800, 480)
        assert kiosk.update(make_view(), 0.0)
        assert kiosk.screen.get_size() == (480, 800)
        turned = pygame.image.tobytes(rotate_frame(kiosk.frame, rotation), "RGB")
        assert pygame.image.tobytes(kiosk.screen, "RGB") == turned
        assert shot_size(kiosk, tmp_path) == (800, 480)
        # A tap at a logical point's physical place is that logical point again, and
        # that place shows the logical point's pixel.
        screen = kiosk.screen
        for logical in ((0, 0), (799, 479), (123, 45)):
            px, py = kiosk.to_physical(logical)
            assert kiosk.to_logical((px, py)) == logical
            assert screen.get_at((px, py)) == kiosk.frame.get_at(logical)
        # Something drawn in the frame alone, then presented as a dirty rectangle.
        kiosk.frame.fill((255, 0, 255), pygame.Rect(700, 400, 20, 10))
        kiosk._present(pygame.Rect(700, 400, 20, 10))
        turned = pygame.image.tobytes(rotate_frame(kiosk.frame, rotation), "RGB")
        assert pygame.image.tobytes(kiosk.screen, "RGB") == turned
    finally:
        kiosk.close()


def test_fullscreen_through_sdls_renderer_takes_the_named_mode(x11) -> None:
    kiosk = Kiosk((1080, 1920), 90, X11_FULLSCREEN, present="renderer")
    try:
        assert kiosk.display_size == (1920, 1080) and kiosk.size == (1080, 1920)
        assert kiosk.update(make_view(), 0.0)
    finally:
        kiosk.close()


def test_easel_screenshot_of_a_windowed_box_is_the_real_frame(x11, tmp_path: Path) -> None:
    """The whole box on a 1920x1080 desktop: `easel run` opens its window, and `easel
    screenshot` saves a 1920x1080 frame."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env.pop("SDL_VIDEODRIVER")  # auto-detect, as a desktop user would
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    args = [sys.executable, "-m", "appliance", "run", "--host", "127.0.0.1", "--port", str(port),
            "--data-dir", str(tmp_path)]
    proc = subprocess.Popen(args, cwd=REPO, env=env, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    lines: list[str] = []
    try:
        for line in proc.stderr:
            lines.append(line)
            if "lobby on screen" in line:
                break
        assert any("opening a window" in line for line in lines), lines
        shot = tmp_path / "frame.png"
        result = subprocess.run(
            [sys.executable, "-m", "appliance", "screenshot", str(shot), "--port", str(port)],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=30,
        )
        assert result.returncode == 0, result
        assert pygame.image.load(str(shot)).get_size() == (1920, 1080)
    finally:
        proc.terminate()
        assert proc.wait(10) == 0
        proc.stderr.close()
