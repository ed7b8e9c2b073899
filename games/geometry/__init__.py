"""Drawing geometry: what a hand-drawn stroke is, for the games' drawing rules.

Broad Lines allows a sheet of at most 2 straight lines or exactly 1 curve, which must keep
one direction of bend and must not cross itself; ArtBox wants a picture made of exactly
the 4 shapes rolled on the dice (circle, square, triangle, straight line). This package
reads strokes (points (x, y, t) in sheet units, see `games.sheet`) and says what it found
and why, in English and Czech, so that a game can show the reason and the players can
overrule it: the machine assists the table, it does not replace its judgement.

How a stroke is read (every tolerance is in `games.geometry.tolerances`; docs/geometry.md
has the method in full and the figures measured on real strokes):

1. Simplify: Ramer-Douglas-Peucker at 1.5 % of the stroke's size (never under 4 sheet
   units, about a phone's pixel); tremor below that is gone, and so are spikes where the
   stroke doubles back by less than twice that (points that arrived out of order).
2. Closed or open: the end crosses the start with at most 15 % of the loop left over at
   either end (or the rest retraces the loop: a circle drawn twice round); or the ends
   come within 15 % of the length of each other (a gap at a corner is closed where the
   end segments meet); a flick at either end (a sharp turn in its last 6 %) is cut off.
3. Corners: a turn of 45 degrees or more between the chords reaching 6 % of the length
   back and ahead; a corner rounded within that window is one corner.
4. Straight: the pieces between corners are straight lines when they stray from their
   chord by at most 15 % of it (6 % for a stroke without corners). A figure made only of
   straight pieces is that many lines (an angle is 2); anything curved makes it 1 curve.
5. Bend: the turns between chords of 3 % of the length, without the ends' last 6 %; the
   bend changes when the curve turns back against its main direction by 30 degrees or
   more in a row (a closed curve: by 60, a notch), or when a closed curve falls in from
   its convex hull by 4 % of its size (a bean's dent); straight pieces whose corners
   hold under 80 % of their bends are a wave, not a zigzag. Crossings count except
   curls under 6 % of the length.
6. Shapes: 3 straight sides closed make a triangle, 4 with turns within 30 degrees of a
   right angle a square (not when all four bow out evenly, middles too, and it has sharp
   tips: a lozenge); 5 blunt corners or more with too little flat between them (a
   closed stroke read as drawn) are a lumpy circle's lumps, no polygon's, and so are
   those of a stroke sampled sparsely (10-30 pointer events) turning alike all round
   at its own spacing (a circle drawn fast with a mouse); a closed curve with 2 points
   (read from the stroke as drawn, where it is one stroke: a lozenge's tips, not a long
   oval's round ends) is none, and one within 8 % (mean) of the ellipse of its own area
   moments is a circle; a straight stroke is a line; under 40 units either way, a dot.

Strokes whose ends meet are read as one figure (an overshoot at the joint is cut off),
so a curve drawn in two goes, or a square drawn as four lines, counts once; in ArtBox,
straight strokes in a row along one line (a line drawn in dashes) may be one line.
"""

from games.geometry.artbox import (
    BadRoll,
    DrawingVerdict,
    Shape,
    ShapeVerdict,
    check_artbox_drawing,
    clear_caches,
    recognise_shapes,
)
from games.geometry.broad_lines import SheetVerdict, check_broad_lines_sheet
from games.geometry.figures import (
    EmptyStroke,
    Figure,
    FigureKind,
    GeometryError,
    Piece,
    classify_stroke,
    stroke_from_xy,
    strokes_from_xy,
)
from games.geometry.reasons import REASONS, reason_text
from games.geometry.tolerances import (
    BEND_REVERSAL,
    BEND_STEP,
    CLOSE_GAP,
    CORNER_ANGLE,
    CORNER_WINDOW,
    DOT_SIZE,
    ELLIPSE_TOLERANCE,
    HOOK_FRACTION,
    JOIN_FRACTION,
    LINE_TOLERANCE,
    MIN_ROUNDNESS,
    OUTLINE_FRACTION,
    OVERLAP_FRACTION,
    RETRACE_FRACTION,
    RIGHT_ANGLE_TOLERANCE,
    SIDE_TOLERANCE,
    SIMPLIFY_FLOOR,
    SIMPLIFY_FRACTION,
)

__all__ = [
    "BEND_REVERSAL",
    "BEND_STEP",
    "CLOSE_GAP",
    "CORNER_ANGLE",
    "CORNER_WINDOW",
    "DOT_SIZE",
    "ELLIPSE_TOLERANCE",
    "HOOK_FRACTION",
    "JOIN_FRACTION",
    "LINE_TOLERANCE",
    "MIN_ROUNDNESS",
    "OUTLINE_FRACTION",
    "OVERLAP_FRACTION",
    "REASONS",
    "RETRACE_FRACTION",
    "RIGHT_ANGLE_TOLERANCE",
    "SIDE_TOLERANCE",
    "SIMPLIFY_FLOOR",
    "SIMPLIFY_FRACTION",
    "BadRoll",
    "DrawingVerdict",
    "EmptyStroke",
    "Figure",
    "FigureKind",
    "GeometryError",
    "Piece",
    "Shape",
    "ShapeVerdict",
    "SheetVerdict",
    "check_artbox_drawing",
    "check_broad_lines_sheet",
    "classify_stroke",
    "clear_caches",
    "reason_text",
    "recognise_shapes",
    "stroke_from_xy",
    "strokes_from_xy",
]
