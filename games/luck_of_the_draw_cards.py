"""Luck of the Draw's cards and its custom die: the game's content, in English and Czech.

The die is defined here and nowhere else (`DIE_FACES`, `subject_number`,
`category_count`): a six-sided die showing 1, 2 and 3 twice each. Rolled at the start of
a round, face n picks the n-th subject on the Subject card; rolled again once the drawings
are laid out, face n says how many Category cards are voted on this round. So every
Subject card lists exactly `SUBJECTS_PER_CARD` = 3 numbered subjects, one for each number
the die can show: 1 is a creature, a food or a thing of nature; 2 a thing, a place, a
vehicle or a person; 3 a whole scene.

The texts are kept as "English | Czech" lines, one per subject or category, so that a
translator reads the two side by side. Card i takes the i-th creature, the (11 i + 5 mod
210)-th thing and the (13 i + 7 mod 210)-th scene (11 and 13 share no factor with 210, so each
subject is on exactly one card): neighbours in a list never meet on a card.

Categories are judgements any drawing can be voted on, whatever its subject. Everything
is family-safe.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

DIE_FACES: Final = (1, 2, 3, 1, 2, 3)
"""The custom die's six faces (the physical die shows each of 1, 2, 3 twice)."""

SUBJECTS_PER_CARD: Final = max(DIE_FACES)
"""A Subject card lists one subject for each number the die can show."""


def subject_number(face: int) -> int:
    """Which subject on the card the first roll of a round picks (1-based)."""
    return face


def category_count(face: int) -> int:
    """How many Category cards the second roll of a round says are voted on."""
    return face


@dataclass(frozen=True)
class Text:
    """A card's text in English and Czech."""

    en: str
    cs: str


@dataclass(frozen=True)
class SubjectCard:
    """A Subject card: subjects[n - 1] is the subject the die's n picks."""

    subjects: tuple[Text, ...]


def _texts(block: str) -> tuple[Text, ...]:
    out = []
    for line in block.strip().splitlines():
        en, cs = line.split(" | ")
        out.append(Text(en, cs))
    return tuple(out)


_CREATURES_AND_NATURE = """
cat | kočka
dog | pes
elephant | slon
giraffe | žirafa
penguin | tučňák
snail | šnek
octopus | chobotnice
owl | sova
hedgehog | ježek
crocodile | krokodýl
kangaroo | klokan
snake | had
frog | žába
butterfly | motýl
spider | pavouk
bee | včela
horse | kůň
cow | kráva
pig | prase
sheep | ovce
hen | slepice
duck | kachna
swan | labuť
parrot | papoušek
flamingo | plameňák
peacock | páv
bat | netopýr
mouse | myš
rabbit | králík
squirrel | veverka
fox | liška
wolf | vlk
bear | medvěd
lion | lev
tiger | tygr
zebra | zebra
camel | velbloud
hippo | hroch
rhinoceros | nosorožec
monkey | opice
gorilla | gorila
panda | panda
koala | koala
sloth | lenochod
turtle | želva
shark | žralok
whale | velryba
dolphin | delfín
jellyfish | medúza
crab | krab
lobster | humr
starfish | hvězdice
seahorse | mořský koník
goldfish | zlatá rybka
ant | mravenec
ladybird | beruška
grasshopper | kobylka
earthworm | žížala
caterpillar | housenka
dragonfly | vážka
mosquito | komár
woodpecker | datel
eagle | orel
stork | čáp
crow | vrána
ostrich | pštros
moose | los
deer | jelen
badger | jezevec
beaver | bobr
otter | vydra
mole | krtek
goat | koza
donkey | osel
llama | lama
walrus | mrož
seal | tuleň
polar bear | lední medvěd
chameleon | chameleon
dinosaur | dinosaurus
dragon | drak
unicorn | jednorožec
mermaid | mořská panna
ghost | strašidlo
robot | robot
alien | mimozemšťan
snowman | sněhulák
apple | jablko
banana | banán
pineapple | ananas
watermelon | meloun
strawberry | jahoda
cherries | třešně
lemon | citron
pear | hruška
bunch of grapes | hrozen vína
carrot | mrkev
potato | brambora
onion | cibule
mushroom | houba
broccoli | brokolice
corn on the cob | kukuřičný klas
pumpkin | dýně
pepper | paprika
cucumber | okurka
pizza | pizza
hamburger | hamburger
hot dog | párek v rohlíku
sandwich | sendvič
spaghetti | špagety
ice cream cone | kornout zmrzliny
birthday cake | narozeninový dort
doughnut | kobliha
pancakes | palačinky
fried egg | volské oko
cheese | sýr
sausage | klobása
soup | polévka
popcorn | popcorn
lollipop | lízátko
chocolate bar | tabulka čokolády
gingerbread | perník
bread roll | rohlík
pretzel | preclík
dumplings | knedlíky
tree | strom
flower | květina
sunflower | slunečnice
cactus | kaktus
rose | růže
palm tree | palma
leaf | list
acorn | žalud
pine cone | šiška
mountain | hora
volcano | sopka
island | ostrov
waterfall | vodopád
river | řeka
lake | jezero
cave | jeskyně
desert | poušť
forest | les
beach | pláž
rainbow | duha
cloud | mrak
lightning | blesk
tornado | tornádo
snowflake | sněhová vločka
sun | slunce
moon | měsíc
star | hvězda
comet | kometa
planet | planeta
puddle | louže
icicle | rampouch
wave | vlna
thunderstorm | bouřka
fog | mlha
sunset | západ slunce
eggs in a nest | vajíčka v hnízdě
spider web | pavučina
anthill | mraveniště
beehive | úl
bird box | ptačí budka
feather | pírko
bone | kost
seashell | mušle
pebble | oblázek
puppy | štěně
kitten | kotě
piglet | sele
chick | kuřátko
tadpole | pulec
hamster | křeček
guinea pig | morče
goose | husa
turkey | krocan
rooster | kohout
pigeon | holub
swallow | vlaštovka
hummingbird | kolibřík
toucan | tukan
pelican | pelikán
vulture | sup
lizard | ještěrka
scorpion | štír
beetle | brouk
moth | můra
fly | moucha
slug | slimák
carp | kapr
trout | pstruh
eel | úhoř
squid | oliheň
sea urchin | mořský ježek
coral reef | korálový útes
raccoon | mýval
skunk | skunk
porcupine | dikobraz
leopard | levhart
cheetah | gepard
bison | bizon
antelope | antilopa
reindeer | sob
dachshund | jezevčík
poodle | pudl
lamb | jehně
foal | hříbě
calf | tele
"""

_THINGS_PLACES_PEOPLE = """
bicycle | kolo
car | auto
bus | autobus
tram | tramvaj
train | vlak
aeroplane | letadlo
helicopter | vrtulník
rocket | raketa
submarine | ponorka
sailing boat | plachetnice
tractor | traktor
fire engine | hasičské auto
ambulance | sanitka
motorbike | motorka
scooter | koloběžka
skateboard | skateboard
hot-air balloon | horkovzdušný balon
lorry | nákladní auto
digger | bagr
rowing boat | loďka
house | dům
castle | hrad
tower | věž
bridge | most
lighthouse | maják
church | kostel
windmill | větrný mlýn
igloo | iglú
tent | stan
treehouse | domek na stromě
skyscraper | mrakodrap
pyramid | pyramida
playground | dětské hřiště
zoo | zoo
swimming pool | bazén
football pitch | fotbalové hřiště
supermarket | supermarket
school | škola
hospital | nemocnice
railway station | nádraží
airport | letiště
farm | statek
circus tent | cirkusový stan
merry-go-round | kolotoč
museum | muzeum
library | knihovna
cinema | kino
kitchen | kuchyně
bathroom | koupelna
garden | zahrada
chair | židle
table | stůl
bed | postel
sofa | gauč
lamp | lampa
clock | hodiny
mirror | zrcadlo
window | okno
door | dveře
ladder | žebřík
umbrella | deštník
glasses | brýle
hat | klobouk
crown | koruna
shoe | bota
sock | ponožka
glove | rukavice
scarf | šála
T-shirt | tričko
trousers | kalhoty
dress | šaty
backpack | batoh
suitcase | kufr
key | klíč
padlock | visací zámek
phone | telefon
computer | počítač
television | televize
camera | fotoaparát
headphones | sluchátka
guitar | kytara
piano | klavír
drum | buben
trumpet | trumpeta
violin | housle
microphone | mikrofon
ball | míč
kite | papírový drak
yo-yo | jojo
teddy bear | plyšový medvídek
doll | panenka
balloon | nafukovací balonek
jigsaw puzzle | skládačka
dice | hrací kostka
chessboard | šachovnice
book | kniha
pencil | tužka
scissors | nůžky
paintbrush | štětec
letter | dopis
newspaper | noviny
map | mapa
compass | kompas
treasure chest | truhla s pokladem
hammer | kladivo
saw | pila
screwdriver | šroubovák
spade | rýč
watering can | konev
wheelbarrow | trakař
broom | koště
bucket | kbelík
candle | svíčka
light bulb | žárovka
torch | baterka
kettle | rychlovarná konvice
frying pan | pánev
saucepan | hrnec
fork | vidlička
spoon | lžíce
mug | hrnek
bottle | láhev
toaster | toustovač
fridge | lednice
washing machine | pračka
vacuum cleaner | vysavač
toothbrush | zubní kartáček
soap | mýdlo
bathtub | vana
towel | ručník
pillow | polštář
alarm clock | budík
calendar | kalendář
present | dárek
Christmas tree | vánoční stromeček
painted Easter egg | kraslice
snow globe | sněžítko
trophy | pohár
medal | medaile
flag | vlajka
anchor | kotva
shield | štít
magic wand | kouzelná hůlka
wizard's hat | čarodějnický klobouk
telescope | dalekohled
magnifying glass | lupa
microscope | mikroskop
traffic lights | semafor
road sign | dopravní značka
postbox | poštovní schránka
bench | lavička
fountain | fontána
statue | socha
scarecrow | strašák
fence | plot
swing | houpačka
slide | skluzavka
sandcastle | hrad z písku
deckchair | lehátko
sunglasses | sluneční brýle
firefighter | hasič
doctor | lékař
teacher | učitel
chef | kuchař
pilot | pilot
astronaut | astronaut
pirate | pirát
knight | rytíř
princess | princezna
king | král
queen | královna
wizard | čaroděj
witch | čarodějnice
clown | klaun
magician | kouzelník
farmer | farmář
police officer | policista
postman | pošťák
baker | pekař
hairdresser | kadeřník
painter | malíř
dentist | zubař
gardener | zahradník
footballer | fotbalista
ballerina | baletka
cowboy | kovboj
detective | detektiv
superhero | superhrdina
grandma | babička
grandpa | dědeček
baby | miminko
twins | dvojčata
giant | obr
dwarf | trpaslík
fairy | víla
mummy | mumie
caveman | pračlověk
explorer | cestovatel
lifeguard | plavčík
referee | rozhodčí
photographer | fotograf
drummer | bubeník
singer | zpěvák
juggler | žonglér
acrobat | akrobat
mountaineer | horolezec
diver | potápěč
skier | lyžař
surfer | surfař
jester | šašek
"""

_SCENES = """
a cat playing the piano | kočka hraje na klavír
a dog on a skateboard | pes na skateboardu
a fish riding a bicycle | ryba jede na kole
a snowman on holiday | sněhulák na dovolené
a dragon blowing out birthday candles | drak sfoukává svíčky na dortu
an elephant hiding behind a tree | slon se schovává za stromem
a giraffe wearing a scarf | žirafa v šále
a penguin in the desert | tučňák na poušti
a robot watering flowers | robot zalévá květiny
a ghost brushing its teeth | strašidlo si čistí zuby
a pirate with a parrot | pirát s papouškem
a knight making friends with a dragon | rytíř se kamarádí s drakem
a witch on a broomstick | čarodějnice na koštěti
an astronaut on the moon | astronaut na Měsíci
a snail winning a race | šnek vyhrává závod
a cow jumping over the moon | kráva skáče přes Měsíc
a bear eating honey | medvěd jí med
a monkey peeling a banana | opice loupe banán
a frog catching a fly | žába chytá mouchu
a chef making pizza | kuchař dělá pizzu
a family picnic | rodinný piknik
a birthday party | narozeninová oslava
a wedding | svatba
a traffic jam | dopravní zácpa
a rainy day | deštivý den
a snowball fight | koulovačka
building a snowman | stavění sněhuláka
a day at the beach | den na pláži
camping in the forest | stanování v lese
a trip to the zoo | výlet do zoo
a school trip | školní výlet
a football match | fotbalový zápas
a tennis match | tenisový zápas
a swimming race | plavecký závod
a bike race | cyklistický závod
a circus show | cirkusové představení
a magic trick | kouzelnický trik
fireworks over the city | ohňostroj nad městem
a haunted house | strašidelný dům
a treasure hunt | hledání pokladu
a shipwreck | ztroskotaná loď
a desert island | pustý ostrov
a storm at sea | bouře na moři
a volcano erupting | soptící sopka
a UFO landing | přistání UFO
a rocket taking off | start rakety
a queue at the post office | fronta na poště
a crowded lift | přeplněný výtah
a bus stop in the rain | zastávka v dešti
a visit to the dentist | návštěva u zubaře
a haircut gone wrong | nepovedený účes
messy hair in the morning | rozcuchané vlasy po ránu
Monday morning | pondělní ráno
the first day of school | první školní den
Christmas Eve | Štědrý večer
an Easter egg hunt | hledání velikonočních vajíček
a carved pumpkin with a candle | vydlabaná dýně se svíčkou
the sea washing away a sandcastle | moře odnáší hrad z písku
a spider spinning a web | pavouk přede pavučinu
a bird feeding its chicks | ptáček krmí mláďata
a cat stuck up a tree | kočka uvízlá na stromě
a dog chasing its tail | pes honí vlastní ocas
a hamster in a wheel | křeček v kolečku
a race between a tortoise and a hare | závod želvy se zajícem
a mouse stealing cheese | myš krade sýr
a pig in a mud bath | prase v bahně
a sheep counting people | ovce počítá lidi
an owl reading a book | sova čte knihu
a bee making honey | včela vyrábí med
an octopus juggling | chobotnice žongluje
a crocodile at the dentist | krokodýl u zubaře
a lion with a toothache | lva bolí zub
a kangaroo with a full pouch | klokan s plnou kapsou
a polar bear on a sunbed | lední medvěd na lehátku
a giraffe in a small car | žirafa v malém autě
a hippo in a tutu | hroch v baletní sukýnce
a penguin waiter | tučňák číšník
a dinosaur in the city | dinosaurus ve městě
a unicorn in the rain | jednorožec v dešti
a mermaid in a bathtub | mořská panna ve vaně
a superhero doing the laundry | superhrdina pere prádlo
a robot learning to dance | robot se učí tančit
an alien doing the shopping | mimozemšťan nakupuje
a wizard who lost his hat | čaroděj, který ztratil klobouk
a king on a bicycle | král na kole
a princess fixing a car | princezna opravuje auto
a clown in a tiny car | klaun v malinkém autě
grandma on a motorbike | babička na motorce
a baby's first steps | první krůčky miminka
twins on a tandem bicycle | dvojčata na tandemovém kole
a giant in a tiny house | obr v malinkém domku
a fairy with a broken wing | víla se zlomeným křídlem
a farmer milking a cow | farmář dojí krávu
a firefighter rescuing a cat | hasič zachraňuje kočku
a doctor listening to a heartbeat | lékař poslouchá srdce
a teacher at the blackboard | učitel u tabule
a painter painting a portrait | malíř maluje portrét
a photographer and a shy bird | fotograf a plachý pták
a diver meeting a whale | potápěč potkává velrybu
a skier falling in the snow | lyžař padá do sněhu
a surfer on a giant wave | surfař na obří vlně
a mountaineer on the summit | horolezec na vrcholu
a juggler on a unicycle | žonglér na jednokolce
a ballerina on tiptoe | baletka na špičkách
a cowboy riding a horse | kovboj na koni
a detective finding footprints | detektiv nachází stopy
a pirate reading a map | pirát čte mapu
a lighthouse in a storm | maják v bouři
a castle in the clouds | hrad v oblacích
a cottage on chicken legs | chaloupka na kuřích nožkách
a city at night | město v noci
a village in winter | vesnice v zimě
a garden in spring | zahrada na jaře
a forest in autumn | les na podzim
a busy kitchen | rušná kuchyně
a messy bedroom | nepořádek v pokoji
a library at midnight | knihovna o půlnoci
a museum with a dinosaur skeleton | muzeum s kostrou dinosaura
a concert | koncert
a rock band | rocková kapela
an orchestra | orchestr
a choir singing | pěvecký sbor
a disco | diskotéka
a fashion show | módní přehlídka
a talent show | soutěž talentů
a cooking competition | kuchařská soutěž
a pie-eating contest | soutěž v pojídání koláčů
a tug of war | přetahování lanem
a sack race | závod v pytlích
a game of hide-and-seek | hra na schovávanou
a pillow fight | polštářová bitva
a sleepover | přespávačka u kamarádů
a tea party | čajový dýchánek
a picnic with ants | piknik s mravenci
a barbecue | grilovačka
a long queue for ice cream | dlouhá fronta na zmrzlinu
a melting ice cream | rozpouštějící se zmrzlina
a sneeze | kýchnutí
a yawn | zívnutí
hiccups | škytavka
a sunburn | spálení od slunce
a flat tyre | píchlá pneumatika
a broken umbrella | rozbitý deštník
a lost sock | ztracená ponožka
a leaking roof | děravá střecha
a burnt cake | připálený dort
a spilled drink | rozlité pití
a kite stuck in a tree | papírový drak uvízlý ve stromě
a balloon flying away | uletěný balonek
a surprise party | oslava s překvapením
a present that is far too big | příliš velký dárek
a dog stealing a sausage | pes krade klobásu
a cat knocking over a vase | kočka shazuje vázu
a parrot that talks too much | papoušek, který moc mluví
a goldfish escaping its bowl | zlatá rybka utíká z akvária
a snail in a hurry | spěchající šnek
an owl awake at noon | sova vzhůru v poledne
a bat hanging upside down | netopýr visí hlavou dolů
a hedgehog carrying an apple | ježek nese jablko
a squirrel hiding nuts | veverka schovává oříšky
a mole in the garden | krtek na zahradě
a fox in a henhouse | liška v kurníku
a wolf in sheep's clothing | vlk v rouše beránčím
the three little pigs | tři prasátka
Little Red Riding Hood | Červená Karkulka
Cinderella's lost shoe | Popelčin ztracený střevíček
a frog prince | žabí princ
Sleeping Beauty | Šípková Růženka
a genie coming out of a lamp | džin vylézá z lampy
a flying carpet | létající koberec
a magic beanstalk | kouzelný fazolový stonek
a mouse scaring an elephant | myš straší slona
a time machine | stroj času
a robot butler | robotický komorník
a space station | vesmírná stanice
an alien's pet | domácí mazlíček mimozemšťana
the moon made of cheese | Měsíc ze sýra
a rainbow after the rain | duha po dešti
a sunrise over the mountains | východ slunce nad horami
lightning striking a tree | blesk uhodí do stromu
a snowstorm | sněhová vánice
a windy day | větrný den
a heatwave | tropické vedro
a foggy morning | mlhavé ráno
autumn leaves falling | padající listí
skaters on a frozen lake | bruslaři na zamrzlém jezeře
sledging down a hill | sáňkování z kopce
a ski jump | skokanský můstek
the finish line of a marathon | cíl maratonu
a penalty kick | pokutový kop
a slam dunk | smeč do koše
a goalkeeper's great save | skvělý zákrok brankáře
a gold medal winner | vítěz se zlatou medailí
a yoga class | hodina jógy
a workout in the gym | cvičení v posilovně
a dance class | taneční hodina
a driving test | řidičská zkouška
a job interview | pracovní pohovor
a family photo | rodinná fotka
a selfie with a famous person | selfie se slavným člověkem
a video call with grandma | videohovor s babičkou
a robot walking a dog | robot venčí psa
a dog walking its owner | pes venčí svého pána
a cat reading the newspaper | kočka čte noviny
a horse at the hairdresser's | kůň u kadeřníka
a cow in a lift | kráva ve výtahu
a crab in a beach café | krab v plážové kavárně
a shark afraid of water | žralok, který se bojí vody
a hen crossing the road | slepice přechází silnici
a bear waking up in spring | medvěd se na jaře probouzí
"""

_CATEGORIES = """
Most likely to bite | Nejspíš by to kouslo
Best use of the whole page | Nejlépe využitý celý papír
Would look great on a T-shirt | Vypadalo by skvěle na tričku
Most beautiful | Nejkrásnější
Funniest | Nejvtipnější
Scariest | Nejstrašidelnější
Cutest | Nejroztomilejší
Most colourful | Nejbarevnější
Most detailed | Nejpodrobnější
Simplest | Nejjednodušší
Most artistic | Nejumělečtější
Most abstract | Nejabstraktnější
Most realistic | Nejrealističtější
Belongs in a museum | Patří do muzea
Best for the fridge door | Nejlepší na dveře lednice
Would make a great sticker | Byla by z toho skvělá samolepka
Most likely to win a prize | Nejspíš by vyhrálo cenu
Looks most like its artist | Nejvíc se podobá svému autorovi
Most likely to be a secret agent | Nejspíš je to tajný agent
Would make the best pet | Byl by z toho nejlepší mazlíček
Most likely to be late | Nejspíš by přišlo pozdě
Smells the nicest | Nejlíp voní
Smells the worst | Nejvíc smrdí
Loudest | Nejhlasitější
Quietest | Nejtišší
Fastest | Nejrychlejší
Slowest | Nejpomalejší
Strongest | Nejsilnější
Happiest | Nejšťastnější
Saddest | Nejsmutnější
Grumpiest | Nejmrzutější
Sleepiest | Nejospalejší
Hungriest | Nejhladovější
Most surprised | Nejpřekvapenější
Most confused | Nejzmatenější
Bravest | Nejstatečnější
Shyest | Nejstydlivější
Most elegant | Nejelegantnější
Most dangerous | Nejnebezpečnější
Most delicious | Nejchutnější
Most likely to win a race | Nejspíš by vyhrálo závod
Most likely to get lost | Nejspíš by se ztratilo
Most likely to sing in the shower | Nejspíš si zpívá ve sprše
Most likely to tell a joke | Nejspíš by řeklo vtip
Most likely to be a superhero | Nejspíš je to superhrdina
Most likely to come from outer space | Nejspíš je to z vesmíru
Most likely to star in a film | Nejspíš by hrálo ve filmu
Most likely to become famous | Nejspíš bude slavné
Most likely to break something | Nejspíš by něco rozbilo
Most likely to eat your homework | Nejspíš by snědlo domácí úkol
Most likely to fall asleep | Nejspíš by usnulo
Most likely to burst into tears | Nejspíš by se rozplakalo
Most likely to start dancing | Nejspíš by se dalo do tance
Would survive in the jungle | Přežilo by v džungli
Would survive on a desert island | Přežilo by na pustém ostrově
Would make the best teacher | Byl by z toho nejlepší učitel
Would make the best friend | Byl by z toho nejlepší kamarád
Would make the worst flatmate | Byl by z toho nejhorší spolubydlící
Best cover for a book | Nejlepší obálka knihy
Best film poster | Nejlepší filmový plakát
Best company logo | Nejlepší logo firmy
Best postage stamp | Nejlepší poštovní známka
Best birthday card | Nejlepší přání k narozeninám
Best picture for a children's book | Nejlepší obrázek do dětské knížky
Would look great on a mug | Vypadalo by skvěle na hrnku
Would look great on a flag | Vypadalo by skvěle na vlajce
Would make a great statue | Byla by z toho skvělá socha
Would make a great toy | Byla by z toho skvělá hračka
Would make a great cartoon | Byl by z toho skvělý kreslený seriál
Would make a great video game | Byla by z toho skvělá videohra
Looks the most expensive | Vypadá nejdráž
Looks the cheapest | Vypadá nejlaciněji
Looks the oldest | Vypadá nejstarší
Looks the most modern | Vypadá nejmoderněji
Most mysterious | Nejzáhadnější
Most magical | Nejkouzelnější
Most romantic | Nejromantičtější
Most heroic | Nejhrdinštější
Most suspicious | Nejpodezřelejší
Most likely to be hiding something | Nejspíš něco skrývá
Most unexpected | Nejnečekanější
Most inventive | Nejnápaditější
Most confident lines | Nejjistější tahy
Wobbliest lines | Nejroztřesenější čáry
Best use of colour | Nejlepší práce s barvami
Biggest | Největší
Tiniest | Nejdrobnější
Roundest | Nejkulatější
Pointiest | Nejšpičatější
Fluffiest | Nejnadýchanější
Shiniest | Nejlesklejší
Most likely to fly away | Nejspíš by uletělo
Most likely to float | Nejspíš by se udrželo na vodě
Best mood on a Monday morning | Má nejlepší náladu v pondělí ráno
Would win a beauty contest | Vyhrálo by soutěž krásy
Most likely to start a band | Nejspíš by založilo kapelu
Most likely to become king | Nejspíš se stane králem
Would win a snowball fight | Vyhrálo by koulovačku
Most likely to be on the news | Nejspíš se objeví ve zprávách
Best hairstyle | Nejlepší účes
Most fashionable | Nejmódnější
Best holiday postcard | Nejlepší pohlednice z dovolené
Could have been drawn by a five-year-old | Mohlo by to nakreslit pětileté dítě
Took the most effort | Dalo nejvíc práce
Least like the subject | Nejméně se podobá zadání
Most likely to make a baby laugh | Nejspíš by rozesmálo miminko
Would scare a ghost | Vylekalo by i strašidlo
Most likely to win a staring contest | Nejspíš by vyhrálo soutěž v zírání
Looks as if it was drawn with eyes shut | Vypadá, jako by to kreslil někdo poslepu
"""


def _deal_subject_cards() -> tuple[SubjectCard, ...]:
    columns = (_texts(_CREATURES_AND_NATURE), _texts(_THINGS_PLACES_PEOPLE), _texts(_SCENES))
    count = len(columns[0])
    steps = ((1, 0), (11, 5), (13, 7))  # (stride, offset) per column
    return tuple(
        SubjectCard(
            tuple(
                col[(i * stride + offset) % count]
                for col, (stride, offset) in zip(columns, steps, strict=True)
            )
        )
        for i in range(count)
    )


SUBJECT_CARDS: Final = _deal_subject_cards()
"""The Subject box: 210 cards of three numbered subjects each."""

CATEGORY_CARDS: Final = _texts(_CATEGORIES)
"""The Category box."""
