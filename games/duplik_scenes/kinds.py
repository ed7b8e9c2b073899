"""The library of drawable kinds: nouns, sizes, where each may stand, its details, its roles.

A kind's picture is designed on a small grid of its own (`size`, in sheet units at scale
1); a scene scales it uniformly, so a box always has the kind's aspect ratio. Some details
change the grid (a boat with a sail is taller), see `size_of`. The roles say which
relations a kind can take part in: what can sit on it (`surface`), go under it
(`underside`), sit in it (`cavity`), and who can hold what.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from games.duplik_scenes.model import Box, SceneObject
from games.duplik_scenes.words import (
    Gender,
    Noun,
    Text,
    cap,
    cs_be,
    cs_count,
    en_be,
    en_count,
    noun,
)

DetailText = Callable[[Noun, int], "Text | None"]


@dataclass(frozen=True)
class DetailSpec:
    """A detail a kind may have: present with `chance`, then a value from low to high.

    `text` words the criterion for a value (None: that value makes no criterion);
    `requires` names a detail it needs (smoke needs a chimney), `excludes` one it cannot
    go with.
    """

    name: str
    chance: float
    text: DetailText
    low: int = 1
    high: int = 1
    requires: str = ""
    excludes: str = ""


@dataclass(frozen=True)
class Kind:
    """One drawable kind of the library."""

    id: str
    noun: Noun
    size: tuple[int, int]
    zones: tuple[str, ...]
    animate: bool = False
    facing: bool = False
    details: tuple[DetailSpec, ...] = ()
    surface: tuple[float, float, float] | None = None
    """Where things sit on it: (v, u1, u2) as fractions of the box (v from the top)."""
    underside: float | None = None
    """The fraction of the height under which things fit (a table top's underside)."""
    cavity: tuple[float, float, float, float] | None = None
    """(u1, v1, u2, v2): where the bottom-centre of a thing inside it lies."""
    layer: int = 1
    """0 is drawn first (mountains, rainbows), then 1 for everything else."""


# --- The nouns of the parts details count ----------------------------------------------

PART: Final = {
    "window": noun("window", "windows", "okno/okna/okno/okně/oknem/okna/oken", "n"),
    "tower": noun("tower", "towers", "věž/věže/věž/věži/věží/věže/věží", "f"),
    "apple": noun("apple", "apples", "jablko/jablka/jablko/jablku/jablkem/jablka/jablek", "n"),
    "bow": noun("bow", "bows", "mašle/mašle/mašli/mašli/mašlí/mašle/mašlí", "f"),
    "porthole": noun("round window", "round windows",
                     "okénko/okénka/okénko/okénku/okénkem/okénka/okének", "n"),
    "coconut": noun("coconut", "coconuts", "kokos/kokosu/kokos/kokosu/kokosem/kokosy/kokosů",
                    "mi"),
    "button": noun("button", "buttons",
                   "knoflík/knoflíku/knoflík/knoflíku/knoflíkem/knoflíky/knoflíků", "mi"),
    "carriage": noun("carriage", "carriages", "vagon/vagonu/vagon/vagonu/vagonem/vagony/vagonů",
                     "mi"),
    "spot": noun("spot", "spots", "tečka/tečky/tečku/tečce/tečkou/tečky/teček", "f"),
    "candle": noun("candle", "candles", "svíčka/svíčky/svíčku/svíčce/svíčkou/svíčky/svíček",
                   "f"),
    "flower": noun("flower", "flowers",
                   "květina/květiny/květinu/květině/květinou/květiny/květin", "f"),
    "egg": noun("egg", "eggs", "vejce/vejce/vejce/vejci/vejcem/vejce/vajec", "n"),
}


def _has(en: str, cs: str) -> DetailText:
    """A yes/no detail: "{The X} has a chimney." / "{X} má komín." (no text when absent)."""
    def text(word: Noun, value: int) -> Text | None:
        if not value:
            return None
        return Text(cap(en.format(X=word.the)), cap(cs.format(X=word.nom)))
    return text


def _counted(part: str, en: str = "{X} has {n}.", cs: str = "{X} má {n}.") -> DetailText:
    """A counted detail: "The house has two windows." / "Dům má dvě okna."."""
    def text(word: Noun, value: int) -> Text | None:
        if not value:
            return None
        thing = PART[part]
        return Text(cap(en.format(X=word.the, n=en_count(value, thing), be=en_be(value))),
                    cap(cs.format(X=word.nom, n=cs_count(value, thing, "acc"),
                                  be=cs_be(value))))
    return text


def _held_in(part: str, en: str, cs: str) -> DetailText:
    """A counted detail whose Czech is "there are N things in it" (nominative, verb agrees)."""
    def text(word: Noun, value: int) -> Text | None:
        if not value:
            return None
        thing = PART[part]
        return Text(cap(en.format(n=en_count(value, thing), be=en_be(value))),
                    cap(cs.format(n=cs_count(value, thing, "nom"), be=cs_be(value))))
    return text


def _moon(word: Noun, value: int) -> Text:
    if value:
        return Text("The moon is a crescent.", "Měsíc má tvar srpku.")
    return Text("The moon is full.", "Měsíc je v úplňku.")


HAT = DetailSpec("hat", 0.45, _has("{X} wears a hat.", "{X} má klobouk."))
GLASSES = DetailSpec("glasses", 0.35, _has("{X} wears glasses.", "{X} má brýle."))
UMBRELLA = DetailSpec("umbrella", 0.25, _has("{X} holds an umbrella.", "{X} drží deštník."))
BEARD = DetailSpec("beard", 0.35, _has("{X} has a beard.", "{X} má vousy."))
STRIPES_F = DetailSpec("stripes", 0.45, _has("{X} is striped.", "{X} je pruhovaná."))


def K(
    id: str, en: str, en_pl: str, cs: str, gender: Gender, size: tuple[int, int], zones: str,
    *, animate: bool = False, facing: bool = False, details: tuple[DetailSpec, ...] = (),
    surface: tuple[float, float, float] | None = None, underside: float | None = None,
    cavity: tuple[float, float, float, float] | None = None, layer: int = 1,
) -> Kind:
    return Kind(id, noun(en, en_pl, cs, gender), size, tuple(zones.split()), animate, facing,
                details, surface, underside, cavity, layer)


LAND = "ground sand floor seabed"
_KINDS: tuple[Kind, ...] = (
    # In the sky (or in space, or floating by a wall indoors).
    K("sun", "sun", "suns", "slunce/slunce/slunce/slunci/sluncem/slunce/sluncí", "n",
      (210, 210), "sky space",
      details=(DetailSpec("face", 0.5, _has("{X} is smiling.", "{X} se usmívá.")),)),
    K("cloud", "cloud", "clouds", "mrak/mraku/mrak/mraku/mrakem/mraky/mraků", "mi",
      (260, 130), "sky",
      details=(DetailSpec("rain", 0.3, _has("It is raining from the cloud.", "Z mraku prší.")),)),
    K("moon", "moon", "moons", "měsíc/měsíce/měsíc/měsíci/měsícem/měsíce/měsíců", "mi",
      (150, 170), "sky space", details=(DetailSpec("crescent", 0.6, _moon),)),
    K("star", "star", "stars", "hvězda/hvězdy/hvězdu/hvězdě/hvězdou/hvězdy/hvězd", "f",
      (100, 100), "sky space"),
    K("bird", "bird", "birds", "pták/ptáka/ptáka/ptákovi/ptákem/ptáci/ptáků", "ma",
      (120, 95), "sky", animate=True, facing=True),
    K("plane", "aeroplane", "aeroplanes",
      "letadlo/letadla/letadlo/letadle/letadlem/letadla/letadel", "n", (320, 130), "sky",
      facing=True),
    K("balloon", "balloon", "balloons",
      "balónek/balónku/balónek/balónku/balónkem/balónky/balónků", "mi", (90, 200), "sky wall"),
    K("kite", "kite", "kites", "drak/draka/draka/drakovi/drakem/draci/draků", "ma",
      (130, 260), "sky",
      details=(DetailSpec("bows", 0.8, _counted("bow", "{X} has {n} on its tail.",
                                                "{X} má na ocasu {n}."), 2, 4),)),
    K("butterfly", "butterfly", "butterflies",
      "motýl/motýla/motýla/motýlovi/motýlem/motýli/motýlů", "ma", (120, 95), "sky",
      animate=True),
    K("rainbow", "rainbow", "rainbows", "duha/duhy/duhu/duze/duhou/duhy/duh", "f",
      (460, 240), "sky", layer=0),
    K("rocket", "rocket", "rockets", "raketa/rakety/raketu/raketě/raketou/rakety/raket", "f",
      (140, 300), "space ground",
      details=(DetailSpec("portholes", 1.0, _counted("porthole"), 1, 3),
               DetailSpec("flames", 0.6, _has("Flames shoot out of the rocket.",
                                               "Z rakety šlehají plameny.")))),
    K("planet", "planet", "planets", "planeta/planety/planetu/planetě/planetou/planety/planet",
      "f", (170, 170), "space",
      details=(DetailSpec("ring", 0.5, _has("{X} has a ring.", "{X} má prstenec.")),)),
    # Nature.
    K("tree", "tree", "trees", "strom/stromu/strom/stromě/stromem/stromy/stromů", "mi",
      (260, 370), "ground", surface=(0.0, 0.4, 0.6), underside=0.72,
      details=(DetailSpec("apples", 0.55, _counted("apple"), 2, 6),)),
    K("fir", "fir tree", "fir trees", "smrk/smrku/smrk/smrku/smrkem/smrky/smrků", "mi",
      (190, 330), "ground"),
    K("flower", "flower", "flowers",
      "květina/květiny/květinu/květině/květinou/květiny/květin", "f", (80, 160), "ground"),
    K("mountain", "mountain", "mountains", "hora/hory/horu/hoře/horou/hory/hor", "f",
      (440, 300), "ground", layer=0,
      details=(DetailSpec("snow", 0.6, _has("{X} has a snowy peak.",
                                             "{X} má zasněžený vrchol.")),)),
    K("rock", "rock", "rocks", "kámen/kamene/kámen/kameni/kamenem/kameny/kamenů", "mi",
      (180, 110), LAND, surface=(0.06, 0.35, 0.65)),
    K("bush", "bush", "bushes", "keř/keře/keř/keři/keřem/keře/keřů", "mi", (200, 120),
      "ground"),
    K("mushroom", "mushroom", "mushrooms", "houba/houby/houbu/houbě/houbou/houby/hub", "f",
      (110, 120), "ground"),
    K("palm", "palm tree", "palm trees", "palma/palmy/palmu/palmě/palmou/palmy/palem", "f",
      (260, 400), "ground sand",
      details=(DetailSpec("coconuts", 0.7, _counted("coconut"), 2, 4),)),
    # Buildings and things that stand.
    K("house", "house", "houses", "dům/domu/dům/domě/domem/domy/domů", "mi", (340, 340),
      "ground", surface=(40 / 340, 115 / 340, 175 / 340),
      details=(DetailSpec("windows", 1.0, _counted("window"), 1, 4),
               DetailSpec("chimney", 0.7, _has("{X} has a chimney.", "{X} má komín.")),
               DetailSpec("smoke", 0.6, _has("Smoke rises from the chimney of the house.",
                                             "Z komína domu stoupá kouř."),
                          requires="chimney"))),
    K("castle", "castle", "castles", "hrad/hradu/hrad/hradě/hradem/hrady/hradů", "mi",
      (440, 380), "ground",
      details=(DetailSpec("towers", 1.0, _counted("tower"), 2, 3),
               DetailSpec("flag", 0.6, _has("A flag flies on the castle.",
                                            "Na hradě vlaje vlajka.")))),
    K("tent", "tent", "tents", "stan/stanu/stan/stanu/stanem/stany/stanů", "mi", (280, 200),
      "ground sand",
      details=(DetailSpec("flag", 0.5, _has("A flag flies on top of the tent.",
                                            "Na stanu vlaje vlajka.")),)),
    K("fence", "fence", "fences", "plot/plotu/plot/plotě/plotem/ploty/plotů", "mi",
      (330, 130), "ground", surface=(0.0, 0.15, 0.85)),
    K("bench", "bench", "benches", "lavička/lavičky/lavičku/lavičce/lavičkou/lavičky/laviček",
      "f", (280, 160), "ground", surface=(0.47, 0.15, 0.85), underside=0.6),
    K("lighthouse", "lighthouse", "lighthouses",
      "maják/majáku/maják/majáku/majákem/majáky/majáků", "mi", (150, 420), "ground sand",
      details=(DetailSpec("light", 0.6, _has("{X} is shining.", "{X} svítí.")),)),
    K("campfire", "campfire", "campfires",
      "táborák/táboráku/táborák/táboráku/táborákem/táboráky/táboráků", "mi", (170, 150),
      "ground sand"),
    K("snowman", "snowman", "snowmen",
      "sněhulák/sněhuláka/sněhuláka/sněhulákovi/sněhulákem/sněhuláci/sněhuláků", "ma",
      (210, 330), "ground",
      details=(DetailSpec("buttons", 1.0, _counted("button"), 2, 4),
               DetailSpec("pot", 0.6, _has("{X} has a pot on his head.",
                                           "{X} má na hlavě hrnec.")),
               DetailSpec("broom", 0.5, _has("{X} holds a broom.", "{X} drží koště.")))),
    K("parasol", "beach umbrella", "beach umbrellas",
      "slunečník/slunečníku/slunečník/slunečníku/slunečníkem/slunečníky/slunečníků", "mi",
      (330, 400), "sand ground", underside=0.34),
    # Vehicles.
    K("car", "car", "cars", "auto/auta/auto/autě/autem/auta/aut", "n", (320, 170),
      "road ground", facing=True, surface=(0.0, 0.42, 0.7)),
    K("bus", "bus", "buses", "autobus/autobusu/autobus/autobusu/autobusem/autobusy/autobusů",
      "mi", (440, 210), "road ground", facing=True,
      details=(DetailSpec("windows", 1.0, _counted("window"), 3, 5),)),
    K("train", "train", "trains", "vlak/vlaku/vlak/vlaku/vlakem/vlaky/vlaků", "mi", (350, 190),
      "road ground", facing=True,
      details=(DetailSpec("carriages", 1.0, _counted("carriage"), 1, 3),
               DetailSpec("smoke", 0.6, _has("Smoke rises from the engine of the train.",
                                             "Z komína lokomotivy stoupá kouř.")))),
    K("bicycle", "bicycle", "bicycles", "kolo/kola/kolo/kole/kolem/kola/kol", "n", (250, 160),
      "ground road", facing=True,
      details=(DetailSpec("basket", 0.5, _has("{X} has a basket.", "{X} má košík.")),)),
    K("boat", "boat", "boats", "loďka/loďky/loďku/loďce/loďkou/loďky/loděk", "f", (300, 120),
      "water surface", facing=True, cavity=(0.1, 0.0, 0.5, 0.75), underside=1.0,
      details=(DetailSpec("sail", 0.6, _has("{X} has a sail.", "{X} má plachtu.")),
               DetailSpec("flag", 0.4, _has("{X} has a flag.", "{X} má vlajku.")))),
    # Animals.
    K("cat", "cat", "cats", "kočka/kočky/kočku/kočce/kočkou/kočky/koček", "f", (140, 160),
      LAND, animate=True, facing=True, details=(STRIPES_F,)),
    K("dog", "dog", "dogs", "pes/psa/psa/psovi/psem/psi/psů", "ma", (220, 160), LAND,
      animate=True, facing=True,
      details=(DetailSpec("bone", 0.3, _has("{X} has a bone in its mouth.",
                                            "{X} má v tlamě kost.")),
               DetailSpec("spots", 0.4, _has("{X} has spots.", "{X} má skvrny.")))),
    K("fish", "fish", "fish", "ryba/ryby/rybu/rybě/rybou/ryby/ryb", "f", (180, 100), "deep",
      animate=True, facing=True, details=(STRIPES_F,)),
    K("duck", "duck", "ducks", "kachna/kachny/kachnu/kachně/kachnou/kachny/kachen", "f",
      (160, 130), "water ground", animate=True, facing=True),
    K("cow", "cow", "cows", "kráva/krávy/krávu/krávě/krávou/krávy/krav", "f", (320, 220),
      "ground", animate=True, facing=True, surface=(0.23, 0.3, 0.55),
      details=(DetailSpec("bell", 0.5, _has("{X} wears a bell.", "{X} má na krku zvonec.")),)),
    K("horse", "horse", "horses", "kůň/koně/koně/koni/koněm/koně/koní", "ma", (300, 270),
      "ground", animate=True, facing=True,
      details=(DetailSpec("saddle", 0.5, _has("{X} has a saddle.", "{X} má sedlo.")),)),
    K("pig", "pig", "pigs", "prase/prasete/prase/praseti/prasetem/prasata/prasat", "n",
      (220, 150), "ground", animate=True, facing=True),
    K("sheep", "sheep", "sheep", "ovce/ovce/ovci/ovci/ovcí/ovce/ovcí", "f", (210, 160),
      "ground", animate=True, facing=True),
    K("rabbit", "rabbit", "rabbits", "králík/králíka/králíka/králíkovi/králíkem/králíci/králíků",
      "ma", (120, 190), "ground floor", animate=True, facing=True,
      details=(DetailSpec("carrot", 0.45, _has("{X} holds a carrot.", "{X} drží mrkev.")),)),
    K("snail", "snail", "snails", "šnek/šneka/šneka/šnekovi/šnekem/šneci/šneků", "ma",
      (160, 110), "ground", facing=True),
    K("frog", "frog", "frogs", "žába/žáby/žábu/žábě/žábou/žáby/žab", "f", (140, 110), "ground",
      animate=True,
      details=(DetailSpec("crown", 0.4, _has("{X} wears a crown.", "{X} má korunku.")),)),
    K("owl", "owl", "owls", "sova/sovy/sovu/sově/sovou/sovy/sov", "f", (120, 160), "ground",
      animate=True),
    K("bear", "bear", "bears", "medvěd/medvěda/medvěda/medvědovi/medvědem/medvědi/medvědů",
      "ma", (210, 260), "ground", animate=True),
    K("elephant", "elephant", "elephants", "slon/slona/slona/slonovi/slonem/sloni/slonů", "ma",
      (360, 270), "ground", animate=True, facing=True, surface=(0.15, 0.28, 0.5)),
    K("giraffe", "giraffe", "giraffes", "žirafa/žirafy/žirafu/žirafě/žirafou/žirafy/žiraf",
      "f", (240, 440), "ground", animate=True, facing=True),
    K("ladybird", "ladybird", "ladybirds",
      "beruška/berušky/berušku/berušce/beruškou/berušky/berušek", "f", (150, 120), "ground",
      animate=True,
      details=(DetailSpec("spots", 1.0, _counted("spot"), 2, 6),)),
    K("crab", "crab", "crabs", "krab/kraba/kraba/krabovi/krabem/krabi/krabů", "ma", (200, 130),
      "sand seabed", animate=True),
    K("starfish", "starfish", "starfish",
      "hvězdice/hvězdice/hvězdici/hvězdici/hvězdicí/hvězdice/hvězdic", "f", (140, 140),
      "seabed sand", animate=True),
    K("octopus", "octopus", "octopuses",
      "chobotnice/chobotnice/chobotnici/chobotnici/chobotnicí/chobotnice/chobotnic", "f",
      (200, 220), "deep seabed", animate=True),
    K("turtle", "turtle", "turtles", "želva/želvy/želvu/želvě/želvou/želvy/želv", "f",
      (220, 130), "deep sand ground", animate=True, facing=True),
    # People.
    K("man", "man", "men", "muž/muže/muže/muži/mužem/muži/mužů", "ma", (155, 341),
      "ground sand floor", animate=True, facing=True,
      details=(HAT, GLASSES, UMBRELLA, BEARD)),
    K("woman", "woman", "women", "žena/ženy/ženu/ženě/ženou/ženy/žen", "f", (150, 330),
      "ground sand floor", animate=True, facing=True, details=(HAT, GLASSES, UMBRELLA)),
    K("child", "child", "children", "dítě/dítěte/dítě/dítěti/dítětem/děti/dětí", "n",
      (110, 220), "ground sand floor", animate=True, facing=True,
      details=(HAT, GLASSES, UMBRELLA)),
    # Indoors and things to put on, under or in other things.
    K("table", "table", "tables", "stůl/stolu/stůl/stole/stolem/stoly/stolů", "mi",
      (380, 200), "floor ground", surface=(0.0, 0.08, 0.92), underside=0.12),
    K("chair", "chair", "chairs", "židle/židle/židli/židli/židlí/židle/židlí", "f", (150, 240),
      "floor ground", facing=True, surface=(0.5, 0.3, 0.85), underside=0.58),
    K("lamp", "lamp", "lamps", "lampa/lampy/lampu/lampě/lampou/lampy/lamp", "f", (150, 200),
      "floor",
      details=(DetailSpec("lit", 0.6, _has("{X} is on.", "{X} svítí.")),)),
    K("vase", "vase", "vases", "váza/vázy/vázu/váze/vázou/vázy/váz", "f", (140, 260), "floor",
      details=(DetailSpec("flowers", 1.0, _held_in("flower", "There {be} {n} in the vase.",
                                                    "Ve váze {be} {n}."), 1, 4),)),
    K("cake", "cake", "cakes", "dort/dortu/dort/dortu/dortem/dorty/dortů", "mi", (170, 160),
      "floor",
      details=(DetailSpec("candles", 1.0, _counted("candle"), 1, 6),)),
    K("gift", "present", "presents", "dárek/dárku/dárek/dárku/dárkem/dárky/dárků", "mi",
      (150, 150), "floor"),
    K("window", "window", "windows", "okno/okna/okno/okně/oknem/okna/oken", "n", (260, 280),
      "wall",
      details=(DetailSpec("curtains", 0.5, _has("{X} has curtains.", "{X} má závěsy.")),)),
    K("basket", "basket", "baskets", "košík/košíku/košík/košíku/košíkem/košíky/košíků", "mi",
      (190, 150), "floor ground sand", cavity=(0.15, 0.3, 0.85, 1.0)),
    K("box", "box", "boxes", "krabice/krabice/krabici/krabici/krabicí/krabice/krabic", "f",
      (200, 150), "floor ground", cavity=(0.1, 0.1, 0.9, 1.0), surface=(0.3, 0.2, 0.8)),
    K("fishbowl", "fishbowl", "fishbowls",
      "akvárium/akvária/akvárium/akváriu/akváriem/akvária/akvárií", "n", (200, 190), "floor",
      cavity=(0.2, 0.3, 0.8, 0.9)),
    K("ball", "ball", "balls", "míč/míče/míč/míči/míčem/míče/míčů", "mi", (100, 100),
      "floor ground sand"),
    K("flag", "flag", "flags", "vlajka/vlajky/vlajku/vlajce/vlajkou/vlajky/vlajek", "f",
      (110, 200), "ground"),
    K("nest", "nest", "nests", "hnízdo/hnízda/hnízdo/hnízdě/hnízdem/hnízda/hnízd", "n",
      (160, 90), "ground",
      details=(DetailSpec("eggs", 1.0, _held_in("egg", "There {be} {n} in the nest.",
                                                 "V hnízdě {be} {n}."), 1, 4),)),
)

OBJECT_KINDS: Final[Mapping[str, Kind]] = {kind.id: kind for kind in _KINDS}
"""The library, by id."""

SURFACE_NOUN: Final = {
    # What "on top of X" is called where it is not X itself: the cat sits on the roof.
    "house": Text("the roof", "střeše"),
    "tree": Text("top of the tree", "stromě"),
    "car": Text("the roof of the car", "střeše auta"),
}

CONFLICTS: Final[Mapping[str, frozenset[str]]] = {
    # Counting or naming "the bird" is unfair while an owl (a bird too) is in the picture.
    "bird": frozenset({"owl", "duck"}),
    "tree": frozenset({"fir", "palm"}),
    "flower": frozenset({"vase"}),
    "star": frozenset({"starfish"}),
    "window": frozenset({"house", "bus", "car", "train", "rocket", "castle", "lighthouse",
                         "plane"}),
    "basket": frozenset({"bicycle"}),
    "box": frozenset({"gift"}),
    "man": frozenset({"snowman"}),
    "flag": frozenset({"castle", "tent", "boat"}),
}

# Which kinds can take part in which designed relation.
ON: Final[Mapping[str, tuple[str, ...]]] = {
    "cat": ("house", "car", "fence", "box", "chair", "rock", "bench"),
    "bird": ("house", "fence", "tree", "elephant", "cow", "rock"),
    "owl": ("tree", "fence"),
    "dog": ("bench", "chair"),
    "frog": ("rock",),
    "snail": ("rock",),
    "ladybird": ("rock",),
    "nest": ("tree",),
    "lamp": ("table",),
    "vase": ("table",),
    "cake": ("table",),
    "gift": ("table",),
    "fishbowl": ("table",),
    "basket": ("table",),
    "ball": ("table", "chair"),
}
INSIDE: Final[Mapping[str, tuple[str, ...]]] = {
    "cat": ("box", "basket"),
    "rabbit": ("box", "basket"),
    "dog": ("box",),
    "fish": ("fishbowl",),
    "ball": ("box", "basket"),
    "man": ("boat",),
    "woman": ("boat",),
    "child": ("boat",),
}
UNDER: Final[Mapping[str, tuple[str, ...]]] = {
    "cat": ("table",),
    "dog": ("table",),
    "ball": ("table", "chair", "bench"),
    "gift": ("table",),
    "rabbit": ("table",),
    "crab": ("parasol",),
    "child": ("parasol",),
    "man": ("parasol",),
    "woman": ("parasol",),
    "fish": ("boat",),
    "turtle": ("boat",),
    "octopus": ("boat",),
}
HOLDERS: Final = ("man", "woman", "child")
CONTRASTS: Final = frozenset(
    {"cat", "dog", "duck", "cow", "horse", "pig", "sheep", "rabbit", "snail", "frog", "owl",
     "bear", "elephant", "giraffe", "crab", "starfish", "octopus", "turtle", "fish", "man",
     "woman", "child", "snowman", "car", "ball", "gift", "tree", "house", "boat", "tent", "cake",
     "bus", "fir"})
"""Kinds whose sizes are worth comparing (a giant cat, a tiny house), unlike rocks or fences."""
ALOFT: Final = frozenset({"sky", "space", "wall", "deep"})
"""Zones of things that fly, float or hang: "above" is about them; "left of" stays among
things on one level (a dog is not "to the right of the sun")."""


def is_aloft(kind: str) -> bool:
    return OBJECT_KINDS[kind].zones[0] in ALOFT
HELD: Final = ("balloon", "kite", "flag", "dog")


# --- Sizes and the geometry the layout and the pictures share --------------------------


def size_of(kind: str, details: Mapping[str, int]) -> tuple[float, float]:
    """The design grid (width, height) of a kind with these details."""
    w, h = OBJECT_KINDS[kind].size
    if kind == "house" and details.get("smoke"):
        h += 90
    elif kind == "boat":
        h = 340 if details.get("sail") or details.get("flag") else 175
    elif kind in HOLDERS and details.get("umbrella"):
        grid_w, grid_h = PERSON_GRID[kind]
        return w * (grid_w + UMBRELLA_ROOM[0]) / grid_w, h * (grid_h + UMBRELLA_ROOM[1]) / grid_h
    elif kind == "cloud" and details.get("rain"):
        h += 90
    elif kind == "rocket" and details.get("flames"):
        h += 80
    elif kind == "train":
        w = 200 + 150 * max(1, details.get("carriages", 1))
        if details.get("smoke"):
            h += 80
    elif kind == "lighthouse" and details.get("light"):
        w = 330
    elif kind == "tent" and details.get("flag"):
        h += 80
    elif kind == "frog" and details.get("crown"):
        h += 40
    elif kind == "moon" and details.get("crescent"):
        w = 120
    elif kind == "planet" and details.get("ring"):
        w = 270
    return float(w), float(h)


PERSON_GRID: Final = {"man": (100, 220), "woman": (100, 220), "child": (100, 200)}
# The kinds' sizes keep these aspect ratios: man 155 x 341, woman 150 x 330, child 110 x 220.
"""A person is designed on a 100-wide grid; an umbrella adds room above and behind."""
UMBRELLA_ROOM: Final = (55, 70)


@dataclass(frozen=True)
class Figure:
    """Where a person's parts are, in sheet units: the frame of the figure, head, hands."""

    frame: Box
    scale: float
    mirrored: bool

    def at(self, u: float, v: float) -> tuple[float, float]:
        """Sheet point of the design point (u, v) of the 100-wide figure grid."""
        x = (100 - u) if self.mirrored else u
        return self.frame.x + x * self.scale, self.frame.y + v * self.scale


def figure(obj: SceneObject) -> Figure:
    """The figure of a person: without an umbrella it fills the box."""
    grid_w, grid_h = PERSON_GRID[obj.kind]
    mirrored = obj.facing < 0
    if obj.detail("umbrella"):
        scale = obj.box.w / (grid_w + UMBRELLA_ROOM[0])
        # The umbrella is on the person's back side: left when facing right.
        dx = 0.0 if mirrored else UMBRELLA_ROOM[0] * scale
        frame = Box(obj.box.x + dx, obj.box.y + UMBRELLA_ROOM[1] * scale,
                    grid_w * scale, grid_h * scale)
        return Figure(frame, scale, mirrored)
    return Figure(obj.box, obj.box.w / grid_w, mirrored)


RAISED_HAND: Final = (94.0, 30.0)
LOW_HAND: Final = (93.0, 118.0)


def hand(obj: SceneObject, raised: bool) -> tuple[float, float]:
    """The person's front hand (on the side it faces), raised or by its side."""
    u, v = RAISED_HAND if raised else LOW_HAND
    if obj.kind == "child":
        v = v * 0.95
    return figure(obj).at(u, v)


def dog_collar(obj: SceneObject) -> tuple[float, float]:
    """Where a lead is clipped on a dog: the collar behind its head."""
    u = 153 / 220
    x = obj.box.x + ((1 - u) if obj.facing < 0 else u) * obj.box.w
    return x, obj.box.y + (79 / 160) * obj.box.h


def body_of(obj: SceneObject) -> Box:
    """The object without what it holds up or gives off (an umbrella, smoke, a crown): what
    "bigger" and "smaller" compare."""
    box = obj.box
    if obj.kind in HOLDERS:
        return figure(obj).frame
    top = {"house": 90 / 340 if obj.detail("smoke") else 0.0,
           "frog": 40 / 140 if obj.detail("crown") else 0.0}.get(obj.kind, 0.0) * box.w
    return Box(box.x, box.y + top, box.w, box.h - top)


def surface_of(obj: SceneObject) -> tuple[float, float, float] | None:
    """Where things sit on `obj`, in sheet units: (y, x1, x2)."""
    spec = OBJECT_KINDS[obj.kind].surface
    if spec is None:
        return None
    v, u1, u2 = spec
    box = obj.box
    if obj.kind == "house":
        # The flat ridge of the roof; a smoke plume above the chimney takes the top 90.
        top = 90 * box.w / 340 if obj.detail("smoke") else 0.0
        y = box.y + top + 40 * box.w / 340
        u1, u2 = 115 / 340, 175 / 340
    else:
        y = box.y + v * box.h
    if obj.facing < 0:
        u1, u2 = 1 - u2, 1 - u1
    return y, box.x + u1 * box.w, box.x + u2 * box.w


def underside_of(obj: SceneObject) -> float | None:
    """The height (sheet y) under which a thing is "under" `obj`."""
    spec = OBJECT_KINDS[obj.kind].underside
    return None if spec is None else obj.box.y + spec * obj.box.h


def cavity_of(obj: SceneObject) -> Box | None:
    """Where the bottom-centre of a thing inside `obj` lies."""
    spec = OBJECT_KINDS[obj.kind].cavity
    if spec is None:
        return None
    u1, v1, u2, v2 = spec
    if obj.kind == "boat":
        # The hull is the bottom 120 of the boat's grid, whatever the mast adds.
        hull_top = obj.box.h - 120 * obj.box.w / 300
        v1, v2 = (hull_top + 10 * obj.box.w / 300) / obj.box.h, 1.0
    if obj.facing < 0:
        u1, u2 = 1 - u2, 1 - u1
    return obj.box.part(u1, v1, u2, v2)
