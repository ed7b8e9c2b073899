"""The themes a scene is made from: a backdrop, titles, and the kinds that belong there.

A title may need kinds in the picture: "kind" (at least one), "kind*" (a group of two or
more, so the title's plural is honest), "kind:detail" (one, with that detail).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.duplik_scenes.words import Text


@dataclass(frozen=True)
class Title:
    text: Text
    needs: tuple[str, ...] = ()


def T(en: str, cs: str, *needs: str) -> Title:
    return Title(Text(en, cs), needs)


@dataclass(frozen=True)
class Theme:
    """Where a scene happens and what may be in it.

    `big` are the large things that anchor the picture, `actors` people, animals and
    vehicles, `sky` the things above, `water` those that float, `groups` the kinds that
    may come two to five at a time (for counting), `extras` small things to put on, in
    and under.
    """

    id: str
    backdrop: str
    titles: tuple[Title, ...]
    big: tuple[str, ...]
    actors: tuple[str, ...]
    sky: tuple[str, ...]
    groups: tuple[str, ...]
    extras: tuple[str, ...] = ()
    water: tuple[str, ...] = ()
    cast: tuple[int, int] = (2, 3)
    """How many actors (least, most)."""


def _k(kinds: str) -> tuple[str, ...]:
    return tuple(kinds.split())


THEMES: Final[tuple[Theme, ...]] = (
    Theme(
        "lake", "lake",
        (T("Picnic by the lake", "Piknik u jezera", "basket"),
         T("A day at the lake", "Den u jezera"),
         T("Sailing on the lake", "Plachtění na jezeře", "boat:sail"),
         T("Ducks on the pond", "Kachny na rybníce", "duck*"),
         T("Summer by the water", "Léto u vody", "sun")),
        _k("tree fir tent bench"), _k("man woman child dog cat frog"),
        _k("sun cloud bird kite balloon butterfly"),
        _k("duck bird cloud flower fir tree butterfly rock"),
        _k("basket ball rock snail bush"), _k("boat duck"),
    ),
    Theme(
        "farm", "meadow",
        (T("On the farm", "Na statku"),
         T("Morning at the farm", "Ráno na statku", "sun"),
         T("In the farmyard", "Na dvoře", "fence"),
         T("Grandpa's farm", "Dědečkův statek", "house"),
         T("Animals on the farm", "Zvířata na statku", "cow")),
        _k("house fence tree"), _k("cow horse pig sheep dog cat man woman"),
        _k("sun cloud bird"), _k("sheep pig bird cloud flower tree duck"), _k("bush rock"),
    ),
    Theme(
        "street", "street",
        (T("In our street", "V naší ulici", "house"),
         T("A busy street", "Rušná ulice", "car"),
         T("Waiting for the bus", "Čekání na autobus", "bus"),
         T("Going to town", "Cesta do města"),
         T("The train is coming", "Jede vlak", "train")),
        _k("house tree bench fence"), _k("car bus bicycle man woman child dog cat"),
        _k("sun cloud bird plane balloon"), _k("house car tree bird cloud"), _k("ball bicycle"),
    ),
    Theme(
        "winter", "snow",
        (T("A winter day", "Zimní den"),
         T("Building a snowman", "Stavíme sněhuláka", "snowman"),
         T("Snow in the village", "Sníh na vesnici", "house"),
         T("Christmas is coming", "Vánoce se blíží", "fir"),
         T("Winter in the woods", "Zima v lese", "fir*")),
        _k("house fir snowman fence"), _k("child man woman dog rabbit"),
        _k("sun cloud bird"), _k("fir bird cloud tree"), _k("rock"),
    ),
    Theme(
        "beach", "beach",
        (T("At the seaside", "U moře"),
         T("A summer holiday", "Letní prázdniny"),
         T("Sandy beach", "Písečná pláž", "parasol"),
         T("A sunny day at the beach", "Slunečný den na pláži", "sun"),
         T("Crabs on the beach", "Krabi na pláži", "crab*")),
        _k("parasol palm tent rock"), _k("man woman child crab dog turtle"),
        _k("sun cloud bird plane kite balloon"), _k("bird cloud crab starfish palm"),
        _k("ball basket starfish"), _k("boat"),
    ),
    Theme(
        "harbour", "beach",
        (T("In the harbour", "V přístavu", "lighthouse"),
         T("Boats at sea", "Loďky na moři", "boat*"),
         T("A fishing trip", "Rybářský výlet", "boat"),
         T("Seagulls over the sea", "Racci nad mořem", "bird*"),
         T("The lighthouse by the sea", "Maják u moře", "lighthouse:light")),
        _k("lighthouse rock palm"), _k("man woman child dog crab"),
        _k("sun cloud bird plane"), _k("boat bird cloud"), _k("basket ball"), _k("boat"),
    ),
    Theme(
        "park", "meadow",
        (T("In the park", "V parku"),
         T("Sunday in the park", "Neděle v parku", "bench"),
         T("A walk with the dog", "Procházka se psem", "dog"),
         T("Flying a kite", "Pouštění draka", "kite"),
         T("Balloons in the park", "Balónky v parku", "balloon*")),
        _k("tree bench fence fir bush"), _k("man woman child dog cat bicycle"),
        _k("sun cloud bird kite balloon butterfly plane"),
        _k("tree flower bird butterfly bush balloon"), _k("ball bicycle flag"),
    ),
    Theme(
        "garden", "meadow",
        (T("In the garden", "Na zahradě"),
         T("Grandma's garden", "Babiččina zahrada", "house"),
         T("Spring in the garden", "Jaro na zahradě", "flower*"),
         T("Little garden animals", "Zvířátka na zahradě"),
         T("After the rain", "Po dešti", "snail")),
        _k("house tree fence bush"), _k("snail frog ladybird rabbit cat woman man child"),
        _k("sun butterfly bird cloud"), _k("flower mushroom butterfly ladybird bird snail"),
        _k("rock nest ball basket"),
    ),
    Theme(
        "camp", "night",
        (T("Camping under the stars", "Táboření pod hvězdami", "star*"),
         T("A night in the woods", "Noc v lese", "fir"),
         T("By the campfire", "U táboráku", "campfire"),
         T("Who is awake at night?", "Kdo v noci nespí?", "owl"),
         T("Goodnight, moon", "Dobrou noc, Měsíci", "moon")),
        _k("tent fir tree campfire"), _k("man woman child owl bear rabbit dog"),
        _k("moon cloud"), _k("star fir tree rock"), _k("rock mushroom"),
    ),
    Theme(
        "party", "indoor",
        (T("A birthday party", "Narozeninová oslava", "cake"),
         T("Happy birthday!", "Všechno nejlepší!", "cake", "gift"),
         T("A party with balloons", "Oslava s balónky", "balloon*"),
         T("Presents for everyone", "Dárky pro všechny", "gift*")),
        _k("table chair window"), _k("child man woman cat dog"), _k("window balloon"),
        _k("balloon gift child"), _k("cake gift ball box lamp vase"),
    ),
    Theme(
        "home", "indoor",
        (T("In the living room", "V obývacím pokoji"),
         T("A quiet evening at home", "Klidný večer doma", "lamp:lit"),
         T("Our cat at home", "Naše kočka doma", "cat"),
         T("Tidying up", "Uklízení", "box"),
         T("Feeding the fish", "Krmení rybičky", "fishbowl")),
        _k("table chair window"), _k("cat dog man woman child rabbit"), _k("window"),
        _k("ball chair"), _k("lamp vase fishbowl box basket ball"),
    ),
    Theme(
        "sea", "underwater",
        (T("Under the sea", "Pod mořem"),
         T("At the bottom of the sea", "Na dně moře", "starfish"),
         T("Fish and friends", "Ryby a jejich kamarádi", "fish*"),
         T("Who lives in the sea?", "Kdo žije v moři?"),
         T("A boat above the fish", "Loďka nad rybami", "boat", "fish*")),
        _k("rock boat"), _k("crab octopus turtle starfish fish"), (),
        _k("fish starfish crab rock turtle"), _k("rock starfish"), (), (3, 4),
    ),
    Theme(
        "mountains", "meadow",
        (T("A trip to the mountains", "Výlet na hory"),
         T("In the mountains", "Na horách", "mountain"),
         T("Snowy peaks", "Zasněžené vrcholky", "mountain*"),
         T("A cottage in the mountains", "Chata na horách", "house", "mountain")),
        _k("mountain fir house tent"), _k("man woman child dog cow bear"),
        _k("sun cloud bird plane"), _k("mountain fir cloud bird rock"), _k("rock flower bench"),
    ),
    Theme(
        "castle", "meadow",
        (T("The old castle", "Starý hrad", "castle"),
         T("A fairy-tale castle", "Pohádkový hrad", "castle"),
         T("The frog prince", "Žabí princ", "castle", "frog:crown"),
         T("Knights are coming", "Rytíři přijíždějí", "castle", "horse:saddle")),
        _k("castle tree fir fence"), _k("horse man woman child dog frog"),
        _k("sun cloud bird rainbow"), _k("bird flower tree fir cloud"), _k("rock flag"),
    ),
    Theme(
        "zoo", "meadow",
        (T("At the zoo", "V zoo"),
         T("On safari", "Na safari", "giraffe"),
         T("Feeding time at the zoo", "Krmení v zoo", "fence"),
         T("The elephant and friends", "Slon a jeho kamarádi", "elephant")),
        _k("fence tree palm rock"), _k("elephant giraffe bear owl man child woman"),
        _k("sun cloud bird balloon"), _k("bird tree palm rock"),
    ),
    Theme(
        "space", "space",
        (T("A trip to space", "Výlet do vesmíru"),
         T("Rocket to the stars", "Raketou ke hvězdám", "rocket", "star*"),
         T("Planets and stars", "Planety a hvězdy", "planet*", "star*"),
         T("To the moon!", "Letíme na Měsíc!", "moon", "rocket")),
        _k("rocket"), _k("rocket rock"), _k("planet moon sun"), _k("star planet rock"),
    ),
    Theme(
        "rain", "meadow",
        (T("A rainy day", "Deštivý den", "cloud:rain"),
         T("Rain and a rainbow", "Déšť a duha", "rainbow", "cloud:rain"),
         T("Umbrellas out!", "Deštníky ven!", "woman:umbrella"),
         T("Ducks in the rain", "Kachny v dešti", "duck*", "cloud:rain")),
        _k("house tree bench fence"), _k("man woman child dog snail frog duck"),
        _k("cloud rainbow bird"), _k("cloud flower mushroom snail"), _k("rock"),
    ),
)
