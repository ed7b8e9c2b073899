"""Every tolerance of drawing geometry in one place, each with what it is for.

All of them are relative to a figure's own size or length, so that scale does not change
a verdict, except the two in sheet units (DOT_SIZE, SIMPLIFY_FLOOR). docs/geometry.md
gives the figures they were measured against.
"""

from __future__ import annotations

from typing import Final

# --- Noise ------------------------------------------------------------------------------

SIMPLIFY_FRACTION: Final = 0.015
"""Ramer-Douglas-Peucker tolerance, as a fraction of a stroke's bounding-box diagonal:
tremor and wobble smaller than this are gone before anything is measured..."""

SIMPLIFY_FLOOR: Final = 4.0
"""...but never below this many sheet units: about one CSS pixel of a phone held upright
(the 1600-unit sheet spans its 360-430 pixel width), the resolution of the input."""

DOT_SIZE: Final = 40
"""A stroke whose bounding box is smaller than this both ways (sheet units, 2.5 % of the
sheet's width) is a dot: a tap, or a circle too small to count."""

HOOK_FRACTION: Final = 0.06
"""The first and last stretch of a stroke, as a fraction of its length, where the pen may
flick: a corner there cuts the flick off, and no change of bend is counted there (nor
round the point where a loop closes). A loop shorter than this is a curl of the pen, not
a crossing."""

# --- Closed or open ---------------------------------------------------------------------

CLOSE_GAP: Final = 0.15
"""Ends closer than this fraction of the loop's length close it (a circle with a gap)."""

GAP_SPAN: Final = 0.6
"""...and than this fraction of the figure's extent along the gap: the ends of a narrow U
are as far apart as the U is wide, so it stays open (a circle's gap of 15 % of its length
spans under half of it)."""

ROUND_GAP_ANGLE: Final = 70.0
"""ArtBox: a stroke left open beyond CLOSE_GAP is still a circle when it runs round one
circle (ROUND_GAP_MISFIT) but for a gap of at most this many degrees of it, its ends
facing each other across the gap (GAP_END_ANGLE): 70 degrees is a gap of 23 % of its
length, 0.57 of the circle's width (a C of 270 degrees misses 90; issue 30's ninth pass)."""

ROUND_GAP_MISFIT: Final = 0.2
"""...its points within this fraction of the fitted circle's radius of it (an oval 1.2
times as wide as high departs by 9 %; a spiral's inner end by a fifth or more)."""

ROUND_GAP_SHARE: Final = 0.22
"""...and a gap (straight across) of at most this fraction of the stroke's length, as
thinned: an oval's gap is judged against what was drawn, where its fitted circle may
miss fewer degrees than a person sees (two ovals left open by 24 % read as missing
69-70 degrees)."""

GAP_END_ANGLE: Final = 30.0
"""...and each end's last stretch (HOOK_FRACTION of its length) running within this many
degrees of the circle's way there: ends that curl in or run off straight do not face
each other across the gap. The stroke may not turn back round the circle by more than
this either (it goes round one way)."""

OVERLAP_FRACTION: Final = 0.15
"""How much of a loop's length may overshoot the point where it closes, at either end."""

RETRACE_FRACTION: Final = 0.10
"""A second round counts as the same loop when it stays within this fraction of the
loop's bounding-box diagonal (a circle drawn twice round)."""

RETRACE_REACH: Final = 0.35
"""An end may touch the other end's stretch this far along the stroke (a fraction of its
length) and close the loop there, when what is left over before that point lies along
the loop (within RETRACE_FRACTION): a square whose first side is drawn again to its end
(a quarter of the stroke and more) beside itself, not across. Without a retrace the
reach is OVERLAP_FRACTION."""

KNOT_LENGTH: Final = 0.12
"""A knot (ArtBox, issue 30's tenth pass): a loop the pen makes where it turns a corner,
crossing its own way there, round it at most this fraction of the rest of the stroke's
length (a circle that long encloses 0.12^2 / 4 pi = 0.0011 of that length squared, a
square 0.06: little against the figure). A fast hand's flourish at a corner; a bigger
loop is a figure's own (a pigtail's, a figure-eight's halves, a star's points)."""

KNOT_TURN: Final = 45.0
"""...and where the way turns: the stroke's way into the knot and out of it (chords of
CORNER_WINDOW of its length either side of the crossing) differ by at least this many
degrees (CORNER_ANGLE). A loop in the middle of a side leaves the way as it came."""

MIN_ROUNDNESS: Final = 0.01
"""A loop must enclose at least this area / length^2 (a circle has 0.080, a 10:1 ellipse
0.019): a line drawn there and back encloses nothing and is not closed."""

JOIN_FRACTION: Final = 0.15
"""Two strokes' ends meet when closer than this fraction of the shorter stroke's length..."""

JOIN_FLOOR: Final = 0.06
"""...or than this fraction of the size of the figure they make together (bounding-box
diagonal; at most JOIN_FRACTION of the longer stroke): a circle cut near one end, or a
short side of a square, still meets its neighbours across a gap a person overlooks."""

CORNER_REACH: Final = 0.25
"""Two strokes whose ends do not meet still meet at a corner when their end segments,
extended or cut back, cross within this fraction of the longer one's length of both ends
(and within half the shorter one): a square or a triangle drawn a side a stroke, the
sides crossing at the corners (a quarter of a side past them) or stopping short of them.
Where they cross, both are cut. (Before: 15 %; generated triangles and squares whose
sides run 10-20 % past their corners were read as 3 or 4 lines in a third of cases,
20-30 % past in all; a Quick, Draw! triangle of three crossing strokes was 3 lines.)"""

SIDE_BY_SIDE_ANGLE: Final = 25.0
"""Two stroke ends that meet but point out the same way, within this many degrees, lie
side by side (two lines drawn next to each other or one over the other, a side drawn
again): they are not joined into one figure (before, two overlaid lines made a sliver
of a closed curve, or a triangle)."""

# --- Corners and straight lines ---------------------------------------------------------

CORNER_WINDOW: Final = 0.06
"""Turns are measured between chords reaching this fraction of the length either side."""

CORNER_ANGLE: Final = 45.0
"""A turn of at least this many degrees within the window is a corner..."""

POLYGON_CORNER_ANGLE: Final = 30.0
"""Round a closed figure, a sharp turn of this many degrees is a corner already (an
octagon turns by 45 at each; the sharpness test keeps a circle, which turns by 22
degrees within the window, free of corners)."""

POLYGON_CORNERS: Final = 5
"""A closed figure with this many corners or more is a polygon: its sides count as
straight lines (Broad Lines), and it is none of the ArtBox shapes, however round."""

POLYGON_TURN_SHARE: Final = 0.8
"""...when its corners hold at least this share of the loop's whole turn (360 degrees):
a polygon turns at its corners only, a round loop all along."""

POLYGON_FOUR_SHARE: Final = 0.8
"""...and corners unlike each other (some under half the sharpest) still count all of
them when its 4 sharpest turn by less than this share of the turn of all of them: an
octagon drawn round, a hexagon drawn wide turn at every corner, some sharper than
others; a square or a triangle with kinks turns mostly at its own corners (a square with
one kink of 35 degrees: 91 %, with two: 84 %). The sides must still be straight."""

CORNER_SHARPNESS: Final = 0.7
"""...when at least this share of it happens within half the window: a corner turns at
a point, a smooth bend (the bottom of a U, the crest of a wave) along its way (over a
circular arc the share is one half)."""

POLYGON_SIDE_LENGTH: Final = 0.09
"""Round a closed figure, a straight run at least this fraction of the loop's length long
is a side a person sees: consecutive segments of its simplified outline that turn by
less than POLYGON_SIDE_BEND where they meet, together this long. A circle simplified at
SIMPLIFY_FRACTION is an outline of segments of 9 % of its length at most (each turning
by 25-35 degrees at its ends); an octagon's sides are 12.5 %, a hexagon's 17 %."""

POLYGON_SIDE_BEND: Final = 12.0
"""Segments meeting at a turn of fewer degrees are one straight run (a side drawn with a
wobble); a circle's simplified outline turns by 25-35 degrees at every vertex."""

POLYGON_SIDE_STRAIGHT: Final = 0.05
"""...and each such run strays from its chord by at most this fraction of it (segments
each turning by less than POLYGON_SIDE_BEND may still bow together)."""

POLYGON_SIDE_SHARE: Final = 0.72
"""A closed figure whose POLYGON_CORNERS or more straight runs (POLYGON_SIDE_LENGTH)
cover this share of its length or more, and meet at POLYGON_CORNERS joints of
POLYGON_CORNER_ANGLE or more, all turning one way, is a polygon drawn fast, its corners
soft: it turns between straight sides (an octagon of Quick, Draw!'s tuning half whose 6
corners of 30 degrees held 79 % of its turn: 0.82), where a circle turns all along (the
$1 circles of the tuning people: 0.62 at most, Quick, Draw!'s tuning circles 0.59; a
coarse $1 circle of a held-out person 0.70, which 0.68 took). An oval's flat flanks
are long runs too (up to 0.8 for 3:1), but they meet at turns of 15-30 degrees, and
only its two ends turn by more. Tried only when the figure's corners of CORNER_ANGLE
leave a side that is not straight (a rectangle whose side is split by a wobble has 5
runs, but its 4 corners make it a square)."""

POLYGON_RUN_SHARE: Final = 0.6
"""A closed figure read as a polygon by its corners must have sides a person sees: its
straight runs (segments meeting at turns under POLYGON_SIDE_BEND, each run at least
CORNER_WINDOW of the length) cover at least this share of its outline; otherwise its
corners are the lumps of a round figure, no corners (a lumpy circle drawn with a wobbling
finger turns by 30-50 degrees at 7-9 spots, as an octagon does, but all along between
them: runs over 0.29-0.59 of it where it read as a polygon). Every polygon measured
covers more: Quick, Draw! octagons 0.64 and up (all but one over 0.76) and hexagons
0.72 and up; the generated fast octagons (corners drawn round) 0.81 and up."""

LUMPY_SIDE: Final = 0.08
"""A closed stroke whose corners have no straight sides between them, read from the stroke
as drawn: the middle 60 % of each stretch between corners wavers across its chord by
this fraction of its length or more (at the median), and its corners are a round
figure's lumps, as when too little of it runs straight (POLYGON_RUN_SHARE). See
`figures._lumpy_sides`."""

POLYGON_FLAT_SHARE: Final = 0.4
FLAT_REACH: Final = 0.03
FLAT_TURN: Final = 0.35
FLAT_SAMPLES: Final = 200
"""A closed stroke read as a polygon of POLYGON_CORNERS corners or more must be flat for
POLYGON_FLAT_SHARE of its length where a person looks at it: read from the stroke as
drawn, resampled at FLAT_SAMPLES points, where it turns between chords of FLAT_REACH of
its length either side by less than FLAT_TURN of what a circle turns there (7.6
degrees). Otherwise its corners are a round figure's lumps (`figures.flat_share`).
Measured: circles drawn with a wobbling finger that read as polygons 0.28-0.46 (most
under 0.4); generated fast octagons and hexagons (corners drawn round) 0.44 and up, wide
ones 0.59 and up; Quick, Draw! octagons and hexagons 0.43 and up; cookies' lumpy
outlines 0.36-0.43."""

SPARSE_SPACING: Final = 60
SPARSE_SIDES: Final = (10, 30)
SPARSE_TURN: Final = (0.3, 2.0)
"""A closed stroke drawn fast with a mouse reaches the box as its pointer events (60-125
a second): a circle in 0.12-0.3 s is a polygon of 10-30 points, each segment straight as
sampled, so it shows no flat side (nor any lack of one) below its own spacing. Read at
that spacing (the stroke's points 1/SPARSE_SPACING of its length apart at least, its
slow ends' bunched events and stair steps merged), a stroke of SPARSE_SIDES segments
whose every turn is SPARSE_TURN times what a circle turns over the same length (its two
segments' share of the whole) is round: its turns are all alike and moderate, spread
by the sampling, not held in corners. Measured: generated fast mouse circles misread as
polygons 0.33-1.5; Quick, Draw! squares and triangles of 10-30 such segments turn 2.1
times and more at their corners (most turn back somewhere too), its octagons and
hexagons have fewer than 10 segments (simplified) or turn back (raw): no real record
moved.
A figure of fewer than 10 segments is a polygon as sampled: a person sees one too."""

LINE_TOLERANCE: Final = 0.08
"""A stroke is straight when it strays from its chord by at most this fraction of the
chord's length (a person still calls a line straight that wanders by 1/12 of its length;
a bow of 8 % is a bend of about 35 degrees). Checked first: within it, wiggles are no
corners, unless the stroke bends back and forth 3 times or more (a low wave)."""

SIDE_TOLERANCE: Final = 0.15
"""A stretch that ends at a corner (an arm of an angle, a side of a triangle) is straight
when it strays from its chord by at most this fraction of the chord's length."""

TO_AND_FRO_LENGTH: Final = 1.8
"""A straight stroke (within LINE_TOLERANCE of its chord) that crosses itself is a line
drawn to and fro, one line, when it is at least this many times its chord's length as
drawn: it goes along its line twice or more (the generated ones drawn in 3-5 goes, 2.5
times and more). A line with a loop in it is longer by the loop's round only: a loop
wide a sixteenth of the line's length makes it 1.2 times as long, and it stays a stroke
that crosses itself (issue 30's eleventh pass, ArtBox)."""

CUSP_TURN: Final = 70.0
"""An angle of two arms in Broad Lines whose corner turns by at most this many degrees
(wider than 110 degrees inside) and whose arms both bow into it by more than
LINE_TOLERANCE is two arcs meeting at a cusp (a bird's wings, a bolt's zag drawn round),
one curve that changes its bend there, not 2 straight lines: each arm turns along its
way by 35 degrees or more, half the corner's turn or more. Narrower angles are left
alone: of the $1 gestures, v's and carets turn by 94-158 degrees and checks by 75-131,
and some people's bow into their corner as much (issue 30's sixth pass); none turns by
70 or less. Measured (issue 30's ninth pass, `arcs_at_a_cusp`, seeds 0-1999): of the
cusps read as 2 lines, 106 of 317 on the tuning (even) seeds and 116 of 309 on the
held-out ones are refused (those turning by 40-70 degrees: 139 of 400 held out were 2
lines, 14 are); no $1 gesture, no Quick, Draw! drawing and no other generated case
moved."""

# --- Bend -------------------------------------------------------------------------------

BEND_STEP: Final = 0.03
"""The bend is measured between successive chords of this fraction of the length."""

BEND_REVERSAL: Final = 30.0
"""Turning back by at least this many degrees in a row against the main direction of
turning changes the bend."""

WAVE_BEND: Final = 40.0
"""A stroke within LINE_TOLERANCE of its chord is a low wave, not a line, when it bends
one way and the other 3 times or more by this many degrees each (a third of it for the
bends cut by its ends)."""

WAVE_RISE: Final = 2.0
"""...and when it strays from its chord by more than this many simplification tolerances
(SIMPLIFY_FRACTION of its size, SIMPLIFY_FLOOR at least): a wiggle within that is the
pen's tremor, which turns both ways at the few vertices of a short stroke (a straight
160-320 unit stroke drawn with a finger's wobble strays by 1.5 tolerances; the low
waves of the generator by 3.5-11)."""

WAVE_CORNER_SHARE: Final = 0.8
"""An open stroke of straight pieces whose corners turn one way and the other is a zigzag
when its corners hold at least this share of its bends (the turn between the middles of
the pieces either side): a zigzag turns at its corners only. A wave with sharp crests
turns along its flanks too (its crests hold 0.5-0.75 of its bends; zigzags 0.85 and
more): it is a curve that changes its bend, not straight lines."""

LUMP_REVERSAL: Final = 60.0
"""A closed curve whose bend turns back by BEND_REVERSAL or more, but by less than this
many degrees, changes its bend only where it also falls in from its convex hull by
DENT_DEPTH: otherwise it turns back at a lump, not a dent or a notch (a circle drawn with
a fast wobble turns back by 30-42 degrees and falls in by 2.5-3.6 %; a heart's notch
turns back by 88-107 degrees, a Quick, Draw! peanut by 23-64 falling in by 3.4 % and
more)."""

DENT_DEPTH: Final = 0.04
"""A closed curve has a dent (a bean, a kidney) when it falls in from its convex hull by
more than this fraction of its size (bounding-box diagonal), away from where it closes:
its bend reverses there. Hand-drawn circles fall in by 2.3 % at most (the $1 circles),
a cusp left where a loop closes aside."""

SEAM_MARGIN: Final = 0.1
"""...measured no nearer than this fraction of the length to where the loop closes, in
the pocket there: a close that falls short inwards leaves a notch of 4-9 % (8 of the 330
$1 circles), which is no dent. A bean begun in its dent is then judged by its turns."""

SEAM_DENT_DEPTH: Final = 0.14
"""...but a pocket at the seam that falls in by this fraction of the size or more is a
dent all the same (a notch where the pen began: a heart drawn from its notch, 0.11-0.18
of its size for the generated hearts that kept their bend). A close falling short
inwards leaves less: 0.10 at most of the 330 $1 circles, 0.07 of the Quick, Draw!
circles and cookies, 0.04 of the generated lumpy and mouse-drawn circles."""

# --- Shapes (ArtBox) --------------------------------------------------------------------

RIGHT_ANGLE_TOLERANCE: Final = 32.0
"""A closed figure of 4 straight sides is a square (or a rectangle) when it turns by
90 degrees, give or take this, at every corner. The $1 study's fast rectangles lean one
side by up to 31 degrees (one of the tuning people's, its top sloping down to the corner
where the stroke closes); the nearest real figure no person calls a square, a Quick,
Draw! cookie read as four sides, is 36 degrees off (30 before issue 30's seventh pass)."""

RIGHT_ANGLE_MEAN_TOLERANCE: Final = 14.0
"""A four-sided figure whose sides are alike (RHOMBUS_SIDES) and whose corners are off
square by more than this on average is a rhombus, a diamond: no square. (Fast
rectangles of the $1 study lean as much, 10-20 degrees, but their sides differ.)"""

RHOMBUS_SIDES: Final = 0.75
"""Four sides are alike when the shortest is at least this fraction of the longest."""

RHOMBUS_DIAGONALS: Final = 1.3
"""A four-sided figure with sides even (RHOMBUS_EVEN_SIDES) whose longer diagonal is at
least this many times its shorter is a rhombus, a diamond, however it stands: its
corners are 15 degrees or more off square (tan(45 + 15/2) = 1.30). The diagonals run
corner to corner, so a rounded corner, an overshoot or a stroke's end moves them
little, where the corners' turns (RIGHT_ANGLE_MEAN_TOLERANCE) move with the sides' bows
(generated rhombi 14-16 degrees off: 8 of 30 read as squares by their turns, none by
their diagonals)."""

TIP_ANGLE: Final = 15.0
"""A four-sided figure stands on its tip when both its diagonals are within this many
degrees of the sheet's upright and its level (an upright figure's diagonals are 45
degrees off both; the $1 rectangles lean 10-20 degrees at most). Such a figure is a
diamond, whatever its sides and however near square its corners: a square turned on its
tip is seen as a diamond (Mach's square and diamond), and people asked for a diamond draw
one so, corners near square, as often as a rhombus. A rectangle turned so has its
diagonals crossing well off square (a 1.5:1 one at 67 degrees) and does not stand on its
tip."""

RHOMBUS_EVEN_SIDES: Final = 0.85
"""Even sides, for the diagonals: the shortest at least this fraction of the longest
(the $1 study's fast rectangles of sides 0.75-0.85 lean as much, diagonals to 1.23, and
stand upright)."""

BOWED_SIDE: Final = 0.2
"""A closed figure of 4 corners near right angles (RIGHT_ANGLE_TOLERANCE) whose sides are
straight (SIDE_TOLERANCE) but one, which bows out by at most this fraction of its chord,
is a square with a side drawn round, as a hand swings a side between two corners (issue
30's eighth pass: two Quick, Draw! squares, their one bowed side 15.0 and 15.5 %;
generated squares with a side bowing out 15-18 %, 16-21 % as measured, were squares 16
times in 100 before, 95 after). A side bowing more is half round: an arch, a tombstone,
a "D" (generated, bowing 30-50 %: no square). The outline cannot tell such a side from
two sides meeting at 135-150 degrees whose corner it missed: a house's blunt roof may be
a square (2 of 300 generated roofs rising 20-25 %)."""

EVEN_BOW: Final = 0.06
"""A closed stroke read as a square whose four sides all bow out evenly, across the whole
side and in its middle half alike (`bows.even_bow`: each side's bow, and twice its middle
half's, at least this fraction of the chord), and which has LOZENGE_POINTS points as
drawn, is a lozenge, no square (issue 30's tenth pass, ArtBox). A lozenge's sides are
arcs, bending all along; a square drawn fast bends only at its round corners, its sides'
middles straight. Measured on the stroke as drawn (docs/geometry.md has the table):
the generated lozenges read as squares 7.1-10.5 %; the squares drawn fast with corners
round from 10-25 % of their sides 5.1 % at most, the $1 rectangles and Quick, Draw!
squares (raw and simplified) 4.2 %. Squares drawn rounder still (corners round from
25-40 % of their sides) reach 6.4 %, but have no points."""

LOZENGE_POINTS: Final = 2
"""The points (`fine_points`, as drawn) a square bowing evenly needs to be a lozenge: the
generated lozenges read as squares have 2 (their sharper tips, 78-80 degrees), squares
drawn with corners round from 25-40 % of their sides 0 (6 of 708: 1). A loop of strokes
read as a circle with QUARTER_TIP_CORNERS outline corners or more is a lozenge with as
many points as drawn (issue 30's eleventh pass, `artbox._lozenge_in_strokes`): the
lozenges in 2-4 strokes have 2 (98 %), the circles in strokes with 2 points 0 outline
corners."""

QUARTER_TIP_TURN: Final = 9.0
"""A closed stroke read as a circle is a lozenge, no circle, when it turns at four tips a
quarter of the way round from each other (`quarters.four_tips`, as drawn), each by at
least this many degrees beyond what the stroke turns by beside it, nowhere else by more
than QUARTER_TIP_ALONE of its weakest tip, and along the middle of each side between by
QUARTER_SIDE_BEND (issue 30's tenth pass, ArtBox: lozenges read as circles). The
generated lozenges read as circles turn so by 11.4-27 degrees (two held-out ones of 60
by 7.2 and 7.6); a circle turning evenly by 0, and of the circles measured, those that
turn at four such places more than twice as much as anywhere else by 1.6 at most."""

QUARTER_TIP_ALONE: Final = 0.5
"""How much, at most, a stroke with four tips a quarter apart (QUARTER_TIP_TURN) turns
beyond its bend anywhere else, as a share of its weakest tip's: the tuning lozenges read
as circles turn 0.18-0.86 of it elsewhere (28 of 36 under 0.5), every circle measured
whose four places turn by 9 degrees 0.75 or more (wobbling circles 0.75, a Quick, Draw!
circle 0.80, browser circles 0.93, mouse circles 0.97, the $1 circles 1.37): lobes, an
oval's two ends, a mouse's stair steps turn elsewhere too."""

QUARTER_SIDE_BEND: Final = 6.0
"""How much (degrees) the middle of each side between four tips a quarter apart
(QUARTER_TIP_TURN) turns, at least, for the stroke to be a lozenge: a lozenge's side is
bowed all along (the generated ones turn by 6.9 degrees and more over the middle quarter
of a side), a square's sides are straight there, however round its corners: those drawn
round from 25-40 % of their sides and read as circles turn at four places a quarter apart
too, but their sides' middles by 3.3 degrees at most (2000 seeds); of 3000 drawn round
from 30-45 %, all but three by 3.4 at most (5.2, 5.7 and 6.8: one is a lozenge now)."""

QUARTER_TIP_CORNERS: Final = 2
"""The outline's corners a stroke read as a circle has, at least, for its four tips to be
looked for (QUARTER_TIP_TURN): the outline keeps two tips of every lozenge read as a
circle (2-3 corners: its sharper tips), where most round strokes have none or one (of
200 lumpy, mouse and wobbling circles each, 0, 0 and 7 have two or more; ovals have their
ends: 158 of 200). Only those pay for the reading (0.1 ms)."""

ELLIPSE_TOLERANCE: Final = 0.08
"""A closed curve is a circle (or an ellipse, or an oval) when it strays from the ellipse
of its own area moments by at most this fraction of the radius, on average (a half disc
scores 0.14, a square 0.16, a triangle 0.33)."""

POINT_ANGLE: Final = 90.0
"""A circle has no points: a closed curve that turns by this much or more at two corners
or more (between the chords of CORNER_WINDOW either side: a lemon, an eye, a hexagon
squashed flat) is no circle, however close to an ellipse. The pen's seam leaves one such
spot at most (the 330 $1 circles: the sharpest spot 60-103 degrees, the second sharpest
79 at most)."""

FINE_POINT_ANGLE: Final = 55.0
"""A point read finer than the outline (a lozenge's tips, whose sides bow out by 8-14 %,
turn by 60-90 degrees within the corner window, as an elongated oval's ends do, and the
simplified outline cannot tell the one from the other): where the stroke as drawn
(thinned, not simplified) turns by this much or more between chords of FINE_POINT_REACH
either side, and holds FINE_POINT_SHARPNESS of the turn it makes between chords twice
as long, it turns at a point, not along a bend. A closed curve in one stroke with two
such points is no circle and no oval. Measured on generated lozenges (tips of 50-80
degrees), held-out seeds read as circles: 87 % before points were read, 42 % at 60
degrees and chords of 2 %, 4.5 % at 55 degrees and chords of 4 % (the scale a tip is
seen at: a lump or a stair step turns within a shorter stretch, and turns back); the
wobbling circles lost 0.5 % to it, the Quick, Draw! circles 1 of 156 (a D-like circle
with a corner) and the cookie outlines 2 of 30 (at 50 degrees: the wobbling circles lose
5 %)."""

FINE_TIP_ANGLE: Final = 48.0
"""A tip between convex sides (issue 30's sixth pass): where the stroke turns by this
much or more between chords of FINE_POINT_REACH either side (and by FINE_POINT_SHARPNESS
of its turn between chords twice as long), and by FINE_TIP_WIDE_ANGLE or more between
those longer chords, it is a point, short of FINE_POINT_ANGLE. A lozenge's sides bowing
out by 8-14 % keep 49-55 degrees of a tip of 75-80 degrees at the reach, and go on
turning the same way, so the tip turns by 59-75 degrees read twice as wide; a wobbling
circle's lumps turn as much at the reach, but their flanks turn back (50-56 degrees read
wider), and so do the blunt spots of real circles (53-59). Generated lozenges read as
circles, seeds 0-199: 13 of 200 before, see docs/geometry.md for after."""

FINE_TIP_WIDE_ANGLE: Final = 60.0
"""What a tip of FINE_TIP_ANGLE turns by at least, read between chords of twice
FINE_POINT_REACH (at 48 degrees without it, 3 real Quick, Draw! circles of 156 and 3
wobbling circles of 800 had two points; a lozenge's tip turns by 59-75)."""

FINE_TIP_SAMPLES: Final = 5
"""How many of the stroke's points (thinned) lie within FINE_POINT_REACH of a tip of
FINE_TIP_ANGLE at least: a stroke sampled more sparsely turns at each of its points as
at a corner, and shows no sides bowing (a Quick, Draw! circle of the simplified files,
25 points round, had 3 there at its blunt spots; a finger-drawn lozenge has 7)."""

FINE_POINT_REACH: Final = 0.04
"""The chords a point is read between, as a fraction of the stroke's length (at least 2
simplification tolerances: a mouse's stair steps and the pen's tremor are no points). A
circle turns by 14 degrees between chords of 4 % either side, and a bend as much at
half the reach as at the full one only where it is a point."""

FINE_POINT_SHARPNESS: Final = 0.75
"""A point's turn between chords of FINE_POINT_REACH, as a share of its turn between
chords twice as long, at least (a point turns as much however near it is read; a bend
turns about half as much at half the reach)."""

FINE_SEAM_ANGLE: Final = 50.0
"""A point at the seam of a closed stroke, where its end comes back to its start, turns by
this much or more between chords of FINE_SEAM_REACH either side of the start (a lozenge
drawn from a tip). Read closer than the points along the stroke: where the pen stopped,
its end curls in or overshoots, a spot a person overlooks on a circle (at 4 % and 55
degrees, 2 Quick, Draw! circles more had two points; at 2 % and 60 degrees, 11 % of
the lozenges drawn from a tip that is sharp were still circles)."""

FINE_SEAM_REACH: Final = 0.03
"""The chords a point at the seam is read between, as a fraction of the length."""

STRAY_FRACTION: Final = 0.08
"""A stroke smaller than this fraction of the whole drawing's size (bounding-box
diagonals) is a stray mark a person overlooks (a dot, a tick beside a shape): it adds no
shape and takes nothing away, unless counting it fits the roll better."""

OUTLINE_FRACTION: Final = 0.03
"""A straight stroke within this fraction of a shape's size of that shape's outline is
drawn over it, and adds no shape of its own."""

OVERSHOOT_NEAR: Final = JOIN_FLOOR
"""A straight stroke starting within this fraction of a triangle's or a square's size of
its outline, both ends this near the line of one of its sides, draws that side on past
its corner (or again over a gap): it adds no shape (the gap at which strokes' ends meet,
JOIN_FLOOR)..."""

OVERSHOOT_LENGTH: Final = 0.6
"""...when it is shorter than this fraction of that side (a longer one is a line of its
own that happens to line up)."""

# --- Cost (bounded by construction) -----------------------------------------------------

MAX_STROKE_POINTS: Final = 4000
"""A stroke of more points than this is not judged ("too long to judge; the table
decides"): the phone protocol sends at most this many (games.strokes.MAX_POINTS), so
only a hostile or broken sender gets there."""

RAW_POINTS: Final = 1024
"""A longer stroke is first taken every k-th point down to this many (a slice, at C
speed): ten seconds of a finger at 100 Hz, far denser than any tolerance below."""

MAX_VERTICES: Final = 160
"""After thinning, a stroke with more points than this is resampled evenly along its
length to this many; everything after (simplification, corners, crossings) works on at
most this many vertices. Real strokes thin to 20-120 points, so only scribbles are cut."""

SIMPLIFY_BUDGET: Final = 6000
"""Point-to-chord distances the simplification may compute per stroke; beyond it, the
spans not yet split keep their points (the result has more vertices, never a stall)."""

CROSSING_LIMIT: Final = 48
"""A figure crossing itself more often than this is a tangle: the search stops and the
verdict says the table decides."""

PAIR_BUDGET: Final = 6000
"""Segment pairs the crossing sweep may compare per figure before it calls the figure
too tangled to judge."""

JOIN_NEIGHBOURS: Final = 3
"""Each stroke end is joined only with its nearest few ends: no drawing, however
crowded, makes the search for strokes going round a loop grow beyond that."""

JOIN_BUDGET: Final = 16
"""At most this many candidate joinings (loops of strokes) are read per drawing..."""

JOIN_VERTICES: Final = 800
"""...and at most this many vertices in all of them (the sides of a square drawn in 4
strokes have 2-10 each; jagged strokes run out of this long before the count)."""

DASH_STROKES: Final = 5
"""A line drawn in dashes (ArtBox, issue 30's sixth pass): at most this many straight
strokes in a row along one line, each gap between them at most DASH_GAP times the longer
dash beside it, are one line."""

DASH_READ: Final = 8
"""Only the DASH_READ longest straight strokes of a drawing are compared as dashes (a pass
over each pair: 64 at most): a line of 5 dashes beside a line of its own is 6."""

DASH_ANGLE: Final = 20.0
"""How far a dash may turn from the line of the dashes (degrees): short dashes drawn fast
wander off their line, but a dash across it is a tick, not a piece of the line."""

DASH_GAP: Final = 1.5
"""The longest gap between two dashes of a line, as a multiple of the longer of the two:
the Quick, Draw! lines drawn in dashes leave gaps of 0.5-1.2 times their dashes."""

DASH_OVERLAP: Final = 0.75
"""How much of the shorter of two dashes in a row may lie beside the other (the pen
starting again a little before where it stopped: a Quick, Draw! line's pieces overlap by
0.56 of the shorter); one lying along another beyond this is that line drawn again."""

DASH_ASIDE: Final = 1.5
"""How far a dash may lie from the line of another dash it is compared with, in
LINE_TOLERANCE of the length from one to the other's far end: a looser test than the
whole line's (the first dash may lean off the line by a few degrees), which keeps a line
drawn beside the dashes out of their row (it broke the row: of 100 dashed lines with a
line 150 units beside them, 68 were read as 2 lines with 5 strokes compared and without
this, 91 with 8 compared, 97 with this too)."""
