"""Duplik's scene cards, generated: a picture, its title and ten criteria, in English and Czech.

The printed game has 120 cards; here a scene is data made from a seed (`generate`), drawn
as an SVG for the Portrayer's phone and the kiosk's art show (`render_svg`), with ten
criteria that `holds` re-checks against the scene's data. `CURATED_SEEDS` are the 120+
cards the box deals by default; any other seed is a fresh card. See docs/duplik-scenes.md.

Standard library only (see games/__init__.py).
"""

from __future__ import annotations

from games.duplik_scenes.criteria import holds, is_fair, region_of
from games.duplik_scenes.curated import CURATED_SEEDS, curated, pick_curated
from games.duplik_scenes.draw import render_svg
from games.duplik_scenes.generate import SceneError, generate
from games.duplik_scenes.kinds import OBJECT_KINDS, Kind
from games.duplik_scenes.model import Backdrop, Box, Criterion, Scene, SceneObject, UnknownObject
from games.duplik_scenes.themes import THEMES, Theme
from games.duplik_scenes.words import Noun, Text, UnknownLanguage

__all__ = [
    "CURATED_SEEDS",
    "OBJECT_KINDS",
    "THEMES",
    "Backdrop",
    "Box",
    "Criterion",
    "Kind",
    "Noun",
    "Scene",
    "SceneError",
    "SceneObject",
    "Text",
    "Theme",
    "UnknownLanguage",
    "UnknownObject",
    "curated",
    "generate",
    "holds",
    "is_fair",
    "pick_curated",
    "region_of",
    "render_svg",
]
