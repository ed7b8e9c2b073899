"""ArtBox's word cards: the things the players draw, in English and Czech.

The printed game has 100 word cards; this deck has more, so that a long evening repeats
fewer words. Every word was chosen to be drawable with exactly four simple shapes from the
dice, circle, square, triangle and straight line, by the rules' own reading: a rectangle
counts as a square, an ellipse as a circle, any triangle as a triangle, a line is straight.
The comment beside each card gives one way to draw it (a roll rarely matches it, which is
the game). The words are concrete, family-safe things, no proper nouns, no weapons.

Format: lowercase, letters, single spaces and hyphens, at most 24 characters; Czech in
the nominative singular with its diacritics; every word distinct in each language
(case-insensitive). tests/test_artbox_words.py checks all of it.

The order is part of the game state: games/artbox.py deals and logs cards as indexes into
WORDS, so replaying a saved game needs the same order. Add new cards at the end only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

LANGUAGES: Final = ("en", "cs")


class UnknownLanguage(ValueError):
    """A word was asked for in a language the cards are not written in."""


@dataclass(frozen=True)
class Word:
    """One word card: the same thing in English and Czech."""

    en: str
    cs: str

    def in_(self, lang: str) -> str:
        if lang == "en":
            return self.en
        if lang == "cs":
            return self.cs
        raise UnknownLanguage(f"no word in {lang!r}; the cards speak {', '.join(LANGUAGES)}")


WORDS: Final[tuple[Word, ...]] = (
    # Buildings and places
    Word("house", "dům"),  # square walls, triangle roof, square door, square window
    Word("castle", "hrad"),  # square wall, two square towers, triangle flag
    Word("lighthouse", "maják"),  # rectangle tower, square lamp room, triangle roof, line beam
    Word("windmill", "větrný mlýn"),  # square, triangle roof, two crossed lines for sails
    Word("church", "kostel"),  # square nave, triangle roof, square tower, triangle spire
    Word("skyscraper", "mrakodrap"),  # tall rectangle, three square windows
    Word("tent", "stan"),  # triangle, triangle door, line pole, line ground
    Word("kennel", "psí bouda"),  # square, triangle roof, circle entrance, line name board
    Word("birdhouse", "ptačí budka"),  # square, triangle roof, circle hole, line perch
    Word("well", "studna"),  # square, triangle roof, two line posts
    Word("pyramid", "pyramida"),  # two triangle faces, small triangle pyramid, circle sun
    # Things on the road and in the air
    Word("traffic light", "semafor"),  # rectangle, three circles
    Word("traffic cone", "dopravní kužel"),  # triangle, two line stripes, rectangle base
    Word("street lamp", "pouliční lampa"),  # line post, line arm, triangle shade, circle light
    Word("signpost", "rozcestník"),  # line post, three rectangle boards
    Word("mailbox", "poštovní schránka"),  # rectangle box, line post, square flag, line slot
    Word("car", "auto"),  # rectangle body, square cabin, two circle wheels
    Word("truck", "nákladní auto"),  # rectangle cargo box, square cab, two circle wheels
    Word("bus", "autobus"),  # long rectangle, square window, two circle wheels
    Word("train", "vlak"),  # rectangle boiler, square cab, two circle wheels
    Word("tractor", "traktor"),  # big circle wheel, small circle wheel, square cab, rectangle
    Word("bicycle", "jízdní kolo"),  # two circle wheels, two lines for the frame
    Word("scooter", "koloběžka"),  # two circle wheels, line deck, line handlebar
    Word("pram", "kočárek"),  # square body, triangle hood, two circle wheels
    Word("wheelbarrow", "trakař"),  # triangle bin, circle wheel, two line handles
    Word("crane", "jeřáb"),  # line mast, line jib, line cable, square cab
    Word("airplane", "letadlo"),  # oval body, two triangle wings, triangle tail
    Word("helicopter", "vrtulník"),  # oval body, line rotor, line mast, line tail
    Word("hot air balloon", "horkovzdušný balon"),  # circle balloon, square basket, two lines
    Word("rocket", "raketa"),  # rectangle body, triangle nose, two triangle fins
    Word("flying saucer", "létající talíř"),  # oval, circle dome, two line legs
    Word("satellite", "družice"),  # square body, two rectangle panels, line antenna
    Word("parachute", "padák"),  # triangle canopy, two line cords, square crate
    Word("paper plane", "papírová vlaštovka"),  # three triangles, line fold
    Word("kite", "papírový drak"),  # square turned on its corner, line string, two triangles
    # On the water
    Word("sailboat", "plachetnice"),  # square hull, line mast, two triangle sails
    Word("ship", "loď"),  # rectangle hull, square cabin, two rectangle funnels
    Word("submarine", "ponorka"),  # oval, square tower, line periscope, circle porthole
    Word("lifebuoy", "záchranný kruh"),  # big circle, small circle, two line ropes
    # Figures
    Word("snowman", "sněhulák"),  # three circles, triangle carrot nose
    Word("robot", "robot"),  # square head, square body, two line arms
    Word("scarecrow", "strašák"),  # line pole, line arms, circle head, triangle hat
    Word("angel", "anděl"),  # circle head, triangle robe, two triangle wings
    Word("teddy bear", "plyšový medvídek"),  # circle head, two circle ears, circle body
    # Animals
    Word("owl", "sova"),  # oval body, two circle eyes, triangle beak
    Word("fish", "ryba"),  # oval body, triangle tail, triangle fin, circle eye
    Word("shark", "žralok"),  # oval body, triangle fin, triangle tail, triangle side fin
    Word("whale", "velryba"),  # oval body, triangle tail, two lines of spout
    Word("cat", "kočka"),  # circle head, two triangle ears, oval body
    Word("dog", "pes"),  # circle head, two oval ears, triangle nose
    Word("mouse", "myš"),  # triangle body, two circle ears, line tail
    Word("pig", "prase"),  # circle head, circle snout, two triangle ears
    Word("rabbit", "králík"),  # circle head, two oval ears, circle body
    Word("fox", "liška"),  # triangle face, two triangle ears, circle nose
    Word("elephant", "slon"),  # circle head, two circle ears, line trunk
    Word("sheep", "ovce"),  # oval body, circle head, two line legs
    Word("bird", "pták"),  # circle body, triangle beak, triangle tail, line leg
    Word("duck", "kachna"),  # circle head, oval body, triangle beak, triangle tail
    Word("chick", "kuře"),  # circle head, circle body, triangle beak, line legs
    Word("penguin", "tučňák"),  # oval body, oval belly, circle head, triangle beak
    Word("frog", "žába"),  # oval body, two circle eyes, line mouth
    Word("turtle", "želva"),  # oval shell, circle head, two circle feet
    Word("snail", "hlemýžď"),  # circle shell, oval body, two line feelers
    Word("ladybird", "beruška"),  # circle body, circle head, line wing edge, circle spot
    Word("bee", "včela"),  # oval body, two oval wings, line sting
    Word("butterfly", "motýl"),  # oval body, two triangle wings, line antenna
    Word("ant", "mravenec"),  # three circles, line antenna
    Word("caterpillar", "housenka"),  # four circles in a row
    # Plants and nature
    Word("tree", "strom"),  # rectangle trunk, three circles of leaves
    Word("fir tree", "jedle"),  # three triangles, square trunk
    Word("palm tree", "palma"),  # line trunk, three triangle leaves
    Word("cactus", "kaktus"),  # rectangle stem, two rectangle arms, square pot
    Word("tulip", "tulipán"),  # two triangle petals, line stem, triangle leaf
    Word("sunflower", "slunečnice"),  # circle head, line stem, two triangle leaves
    Word("mushroom", "houba"),  # triangle cap, square stem, two circle spots
    Word("sun", "slunce"),  # circle, three line rays
    Word("snowflake", "sněhová vločka"),  # four crossing lines
    Word("mountain", "hora"),  # two triangle peaks, two triangle snow caps
    Word("volcano", "sopka"),  # triangle, three circle puffs of smoke
    Word("campfire", "táborák"),  # two crossed line logs, two triangle flames
    # Food
    Word("ice cream cone", "kornout zmrzliny"),  # triangle cone, three circle scoops
    Word("lollipop", "lízátko"),  # circle candy, line stick, two triangles for a bow
    Word("apple", "jablko"),  # circle, line stalk, two triangle leaves
    Word("cherry", "třešeň"),  # two circle cherries, two line stalks
    Word("pear", "hruška"),  # small circle, big circle, line stalk, triangle leaf
    Word("carrot", "mrkev"),  # triangle, three line leaves
    Word("pineapple", "ananas"),  # oval, three triangle leaves
    Word("strawberry", "jahoda"),  # triangle berry, two triangle leaves, line stalk
    Word("cheese", "sýr"),  # triangle wedge, three circle holes
    Word("pizza slice", "kousek pizzy"),  # triangle, three circle toppings
    Word("cake", "dort"),  # two rectangle layers, line candle, triangle flame
    # In the home
    Word("table", "stůl"),  # rectangle top, three line legs
    Word("chair", "židle"),  # square seat, square back, two line legs
    Word("sofa", "pohovka"),  # rectangle seat, rectangle back, two square armrests
    Word("bed", "postel"),  # rectangle mattress, rectangle headboard, square pillow, line leg
    Word("wardrobe", "skříň"),  # rectangle, line between doors, two circle knobs
    Word("bathtub", "vana"),  # rectangle tub, two line legs, circle bubble
    Word("window", "okno"),  # square frame, two crossing lines, rectangle sill
    Word("ladder", "žebřík"),  # two line rails, two line rungs
    Word("lamp", "lampa"),  # triangle shade, line stem, square base, circle bulb
    Word("lantern", "lucerna"),  # square body, triangle roof, circle handle, circle flame
    Word("candle", "svíčka"),  # rectangle, line wick, triangle flame, square holder
    Word("light bulb", "žárovka"),  # circle glass, square base, two line filaments
    Word("alarm clock", "budík"),  # circle face, two circle bells, line hand
    Word("mug", "hrnek"),  # square cup, circle handle, two lines of steam
    Word("teapot", "čajová konvice"),  # circle body, triangle spout, circle handle, triangle lid
    Word("bottle", "láhev"),  # rectangle body, rectangle neck, square label, circle cap
    Word("fork", "vidlička"),  # line handle, line crossbar, two line tines
    Word("watering can", "konev"),  # square can, line spout, circle handle, circle rose
    Word("washing machine", "pračka"),  # square, circle door, circle drum, square panel
    Word("fridge", "lednička"),  # two rectangle doors, two line handles
    Word("toaster", "topinkovač"),  # rectangle, two square slices of toast, line lever
    Word("television", "televize"),  # rectangle screen, two line aerials, square stand
    Word("radio", "rádio"),  # rectangle, circle speaker, line aerial, square dial
    Word("computer", "počítač"),  # square monitor, line stand, rectangle keyboard, square mouse
    Word("camera", "fotoaparát"),  # rectangle body, circle lens, square viewfinder, circle button
    # Things to carry, play with and give
    Word("key", "klíč"),  # circle bow, line shaft, two square teeth
    Word("crown", "koruna"),  # rectangle band, three triangle points
    Word("flag", "vlajka"),  # line pole, rectangle cloth, circle emblem, square base
    Word("gift", "dárek"),  # square box, line ribbon, two triangles for a bow
    Word("envelope", "obálka"),  # rectangle, triangle flap, circle seal, square stamp
    Word("book", "kniha"),  # two square pages, two lines of text
    Word("pencil", "tužka"),  # rectangle body, triangle tip, square eraser, triangle lead
    Word("easel", "malířský stojan"),  # three line legs, square canvas
    Word("magnifying glass", "lupa"),  # circle lens, line handle, two line glints
    Word("flashlight", "baterka"),  # rectangle body, square head, triangle beam, circle button
    Word("battery", "baterie"),  # rectangle, square terminal, two crossing lines for plus
    Word("microphone", "mikrofon"),  # circle head, rectangle handle, line stand, square base
    Word("telescope", "dalekohled"),  # rectangle tube, three line tripod legs
    Word("backpack", "batoh"),  # rectangle, square pocket, two line straps
    Word("suitcase", "kufr"),  # rectangle, square handle, two line straps
    Word("treasure chest", "truhla s pokladem"),  # two rectangles, square lock, circle coin
    Word("guitar", "kytara"),  # two circles for the body, line neck, square head
    Word("drum", "buben"),  # oval top, rectangle shell, two line sticks
    Word("bell", "zvon"),  # triangle bell, circle clapper, line rope, square beam
    Word("trophy", "pohár"),  # triangle cup, line stem, rectangle base, circle handle
    Word("medal", "medaile"),  # circle, two line ribbons, square clasp
    Word("tennis racket", "tenisová raketa"),  # oval head, line handle, two line strings
    Word("magic wand", "kouzelná hůlka"),  # line stick, two triangles for a star, circle
    Word("pinwheel", "větrník"),  # three triangle blades, line stick
    Word("swing", "houpačka"),  # line beam, two line ropes, rectangle seat
    Word("t-shirt", "tričko"),  # square body, two square sleeves, triangle neckline
    Word("wind turbine", "větrná elektrárna"),  # line tower, three line blades
)
