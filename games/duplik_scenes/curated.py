"""The curated deck: 120+ seeds whose scenes the box deals by default, like the printed cards.

The seeds were picked by `pick_curated(range(1, 3001))` (run once; the result is pasted
below so that the deck never changes when the picker does): it keeps the scenes with at
least four kinds of criteria, scores them (kinds of criteria, designed relations such as
"the cat sits on the roof", details, a size contrast, enough objects), and deals them out
theme by theme, eight per theme, cycling through each theme's titles and taking the best
scene of a title first, so that the deck has every theme and as many titles as it can.
A test pins the deck (a digest of its Czech texts), so a change to the generator that would
reshuffle the printed cards is noticed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import cache
from typing import Final

from games.duplik_scenes.generate import generate
from games.duplik_scenes.model import Scene

CURATED_SEEDS: Final[tuple[int, ...]] = (
    33, 44, 74, 110, 156, 172, 174, 176, 198, 218, 222, 275, 278, 289, 291, 299, 327, 363, 365,
    382, 397, 406, 425, 431, 474, 517, 530, 549, 565, 573, 594, 606, 610, 611, 629, 644, 675,
    681, 687, 716, 734, 751, 770, 782, 783, 799, 848, 854, 865, 880, 937, 940, 946, 950, 981,
    984, 1041, 1076, 1103, 1123, 1147, 1151, 1325, 1342, 1380, 1399, 1406, 1489, 1508, 1582,
    1593, 1610, 1637, 1658, 1674, 1677, 1700, 1715, 1723, 1736, 1772, 1787, 1810, 1825, 1855,
    1857, 1876, 1926, 1972, 1989, 2004, 2038, 2043, 2067, 2139, 2193, 2205, 2247, 2277, 2290,
    2295, 2325, 2327, 2379, 2387, 2394, 2396, 2416, 2418, 2431, 2455, 2460, 2485, 2518, 2540,
    2561, 2567, 2617, 2642, 2646, 2697, 2702, 2744, 2777, 2783, 2788, 2795, 2799, 2820, 2826,
    2853, 2900, 2939, 2949, 2963, 2969,
)


def quality(scene: Scene) -> float:
    """How good a card the scene makes: varied criteria, designed relations, details."""
    kinds = Counter(c.kind for c in scene.criteria)
    designed = sum(c.test in ("on", "in", "under", "holding", "next_to") for c in scene.criteria)
    return (4 * len(kinds) + 2 * min(designed, 3) + min(kinds["detail"], 3)
            + min(kinds["size"], 1) * 2 + min(len(scene.objects), 11) * 0.3
            - 2 * max(0, kinds["relation"] - designed - 2))


def pick_curated(seeds: Iterable[int], count: int = 136) -> tuple[int, ...]:
    """The `count` best seeds, spread evenly over the themes and, within a theme, over its
    titles (see the module doc). Only scenes with four or more kinds of criteria qualify."""
    pool: dict[str, dict[str, list[tuple[float, int]]]] = defaultdict(lambda: defaultdict(list))
    for seed in seeds:
        scene = generate(seed)
        if len({c.kind for c in scene.criteria}) >= 4:
            pool[scene.theme][scene.title.en].append((-quality(scene), seed))
    for titles in pool.values():
        for options in titles.values():
            options.sort()
    picks: Counter[str] = Counter()
    chosen: list[int] = []
    while len(chosen) < count:
        before = len(chosen)
        for theme in sorted(pool):
            titles = pool[theme]
            open_titles = [(picks[t], options[0], t) for t, options in titles.items() if options]
            if not open_titles or len(chosen) == count:
                continue
            title = min(open_titles)[2]
            chosen.append(titles[title].pop(0)[1])
            picks[title] += 1
        if len(chosen) == before:
            break
    return tuple(sorted(chosen))


@cache
def curated() -> tuple[Scene, ...]:
    """The curated deck's scenes, in seed order (made once, then remembered)."""
    return tuple(generate(seed) for seed in CURATED_SEEDS)
