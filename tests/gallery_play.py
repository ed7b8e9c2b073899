"""Plays a whole ArtBox game through a Session (phones' moves, table buttons): used by the
gallery and lobby-history tests, which need a finished match with drawings in its log."""

from __future__ import annotations

from appliance.table.session import HOST, PALETTE, Session
from games.artbox import number_of, word_position
from tests.test_artbox import shape_stroke


def play_artbox(session: Session, players: int = 3, max_steps: int = 400) -> int:
    """Seat `players`, start ArtBox and play it to its end; returns the match id."""
    for i in range(players):
        session.join(f"Artist {i}", PALETTE[i])
    session.select(HOST, "artbox")
    session.start(HOST)
    assert session.match is not None
    match_id = session.match.record.id
    for _ in range(max_steps):
        match = session.match
        if match is None:
            return match_id
        st = match.state
        rnd = st.round
        if st.phase == "choose":
            for seat in st.seats:
                if seat not in rnd.kept:
                    session.act(seat, "keep", {"card": seat % 2})
        elif st.phase == "roll":
            session.act(rnd.starter, "roll", {})
        elif st.phase == "create":
            for seat in st.seats:
                if seat in rnd.order:
                    continue
                for i, shape in enumerate(rnd.dice):
                    session.act(seat, "stroke", shape_stroke(shape, 250 + 370 * i, 500))
                session.act(seat, "finish", {})
        elif st.phase == "match":
            for seat in st.seats:
                if seat in rnd.done:
                    continue
                for owner in st.seats:
                    if owner != seat:
                        current = session.match.state.round if session.match else rnd
                        session.act(seat, "guess", {
                            "picture": number_of(current, owner),
                            "word": word_position(current, owner),
                        })
                session.act(seat, "done", {})
        elif st.phase == "reveal":
            if not session.press("reveal"):
                session.act(rnd.starter, "award", {})
        elif st.phase == "points":
            session.act(rnd.starter, "next", {})
        else:
            raise AssertionError(f"unexpected phase {st.phase}")
    raise AssertionError("the game did not end")
