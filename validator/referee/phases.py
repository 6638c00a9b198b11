"""Which phase of the sequence of play the game is in, read from the order of events.

VASSAL logs name the turn, rarely the phase. The tracker keeps every phase the game can be in after
each event (with whether a die was rolled in it), advancing only as far as an event forces: a move
by a side's unit must fall in a phase where that side moves that unit's movement class (the
sequence's `moves` data), or, after a die roll, in a combat phase (a retreat or an advance). The
earliest phase still possible is the one reported, marked "inferred". A chat line that names a
side and a phase ("US movement phase, GT 1") announces the phase: it then holds until the next
announcement or turn change, and the report says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from ..records.record import TurnChanged
from ..source.model import Game, Phase

_STOP = {"phase", "the", "and", "of", "a", "turn", "player", "segment"}
# what may come before the phase's name in an announcement (with the sides' words: "Turn 1 (Day 1 AM), Red
# Movement Phase", "Pre-Turn, Turn 2: Reinforcement Placement", "Now: Blue combat"); a line with other words
# before it ("worried about what the Allied movement phase will bring") is a remark, not an announcement
_LEAD = {"turn", "gt", "game", "day", "am", "pm", "now", "begin", "begins", "beginning", "start", "starts", "starting",
         "new", "pre", "player", "phase", "segment", "the", "of", "and", "s", "ok", "okay", "so", "jan", "feb", "mar", "apr", "may", "jun",
         "jul", "aug", "sep", "sept", "oct", "nov", "dec", "january", "february", "march", "april", "june", "july",
         "august", "september", "october", "november", "december",
         "t", "round", "st", "nd", "rd", "th", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
         "ten", "eleven", "twelve", "mechanized", "mechanised", "mech"}      # "T1 Red exploitation", "Round 2", "2nd turn", "Turn two: Red movement"


_DONE = {"done", "over", "finished", "complete", "completed", "end", "ended", "ending", "ends"}   # "... done": it ended
_SUFFIXES = ("ing", "es", "s", "ed")      # "Red exploits", "Red exploiting": the verb of a phase's name
_NOT_A_SIDE = {"all", "alli", "the", "and", "are", "ready"}   # words a side's abbreviation could be taken for
_NOT_YET = {"not", "yet", "once", "soon", "later", "until", "before", "after", "will", "should", "fear", "worried"}


def _stem_begins(w: str, known: frozenset) -> list[str]:
    """The known words a verb's stem begins ("exploits", "exploiting": "exploit" begins "exploitation")."""
    for suffix in _SUFFIXES:
        stem = w[:-len(suffix)]
        if w.endswith(suffix) and len(stem) >= 4:
            near = [k for k in known if k.startswith(stem)]
            if near:
                return near
    return []


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def _edits(a: str, b: str) -> int:
    """Letters to change, add, drop or swap (two next to each other) to make a into b."""
    prev2, prev = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def _name_score(name: str, p, listed: list, words: set, lead: set, drop: set) -> Optional[int]:
    """How well a chat line's words name a phase by one of its names (None: they do not): its key words in
    the line, the first of them after nothing but lead words (a side's name, "phase", a turn)."""
    key = [w for w in _words(name) if w not in _STOP and w not in drop]
    if not key or key[0] not in words or not lead.issuperset(listed[:listed.index(key[0])]):
        return None
    if not p.side and not all(w in words for w in key if w not in _LEAD):   # "... and begin a new turn"
        return None
    return sum(1 for w in key if w in words) * 10 - len(key)


def _printed_names(game: Game) -> dict[str, tuple[str, ...]]:
    """Phase id -> the names the rulebook printed for it where an erratum renamed it: players name phases
    as their rulebook prints them (Ardennes II's "Barrage & DG Marker Removal", errata 3's "DG Marker
    Removal")."""
    out: dict[str, tuple[str, ...]] = {}
    for doc in game.errata:
        for item in doc.items:
            for pa in item.patches:
                path = pa.path
                if (pa.op == "set" and pa.file == "game.yaml" and len(path) == 3 and path[0] == "sequence_of_play"
                        and path[2] == "name" and hasattr(path[1], "get") and isinstance(pa.from_, str)):
                    out[path[1].get("id")] = out.get(path[1].get("id"), ()) + (pa.from_,)
    return out


@dataclass
class PhaseTracker:
    """The earliest phase the game can be in. Rolls are allowed in any phase; one made after the last
    event that fixed the phase (`pending_roll`) may belong to any later phase as well, and one after a
    chat's announcement to a later combat phase not announced; the phase the turn marker records holds."""
    game: Game
    index: Optional[int] = None                    # the earliest possible phase (None: no sequence)
    rolled_here: bool = False                      # a die was rolled in that phase
    pending_roll: bool = False                     # ... after the last event that fixed the phase
    announced_at: Optional[int] = None             # step of the chat that announced the phase
    recorded_at: Optional[int] = None              # step whose turn marker named the phase (the module's)
    forced_at: Optional[int] = None                # step of the event that forced the phase
    turn: Optional[str] = None                     # the turn the phases are of (a phase may be left out of it)
    _named: dict = field(default_factory=dict, repr=False, compare=False)  # chat text -> the phase it names
    _labels: dict = field(default_factory=dict, repr=False, compare=False)  # what `label` reads -> its text
    _knows_moves: Optional[bool] = field(default=None, repr=False, compare=False)
    _knows_arrivals: Optional[bool] = field(default=None, repr=False, compare=False)
    _key_words: Optional[frozenset] = field(default=None, repr=False, compare=False)
    _names_known: Optional[frozenset] = field(default=None, repr=False, compare=False)
    _word_as: dict = field(default_factory=dict, repr=False, compare=False)   # chat word -> the name word it reads as
    _reads_as: dict = field(default_factory=dict, repr=False, compare=False)  # chat text -> reads_as_announcement

    def __post_init__(self) -> None:
        self.phases: tuple[Phase, ...] = self.game.phases     # asked at every event: kept, not looked up
        self.reset()

    def copied(self) -> "PhaseTracker":
        """A shallow copy (as copy.copy makes, without its generic machinery: one is kept per step)."""
        t = object.__new__(type(self))
        t.__dict__.update(self.__dict__)
        return t

    # -- reading --
    def knows_moves(self) -> bool:
        """The sequence says which phases units move in (else sequence rules cannot judge)."""
        if self._knows_moves is None:               # the game's phases are fixed: read once
            self._knows_moves = any(p.moves for p in self.phases)
        return self._knows_moves

    def knows_arrivals(self) -> bool:
        """The sequence says in which phases reinforcements arrive (`arrivals`)."""
        if self._knows_arrivals is None:
            self._knows_arrivals = any(p.arrivals for p in self.phases)
        return self._knows_arrivals

    def arrival_phase(self, side: Optional[str], cls: Optional[str] = None) -> Optional[int]:
        """The earliest phase from here in which this side's reinforcements (of this movement class: a phase
        whose `moves` names some classes lets only those arrive, as they alone move in it) arrive (only the
        current one where the phase is pinned by the chat or the turn marker); None if none is left this turn."""
        if self.index is None:
            return None
        last = self.index + 1 if self.announced_at is not None else len(self.phases)
        for i in range(self.index, last):
            p = self.phases[i]
            barred = p.moves is not None and not p.moves_class(cls)
            if p.arrivals and (side is None or p.side in (None, side)) and not barred:
                return i
        return None

    def current(self) -> Optional[int]:
        return self.index

    def pinned(self) -> bool:
        """The phase is certain: a chat line announced it or the turn marker records it (at a step, or
        when the log began: step 0)."""
        return self.announced_at is not None

    def phase(self) -> Optional[Phase]:
        return self.phases[self.index] if self.index is not None else None

    def label(self) -> Optional[str]:
        key = (self.index, self.recorded_at, self.announced_at)   # all it reads; asked at every event
        text = self._labels.get(key)
        if text is None and self.index is not None:
            if len(self._labels) >= 10_000:
                self._labels.clear()
            text = self._labels[key] = self._label()
        return text

    def _label(self) -> str:
        how = ("recorded when the log began" if self.recorded_at == 0 else
               f"recorded at step {self.recorded_at}" if self.recorded_at else
               f"announced at step {self.announced_at}" if self.announced_at else "inferred")
        return f"{self.name(self.index)}, {how}"

    def name(self, i: int) -> str:
        p = self.phases[i]
        side = self.game.side(p.side) if p.side else None
        return p.name if side is None or side.name.lower() in p.name.lower() else f"{side.name} {p.name}"

    def left_out(self, i: int) -> bool:
        """Phase i is left out of this turn (`not_on_turns`): nothing moves or fights in it."""
        p = self.phases[i]
        return bool(p.not_on_turns) and self.turn in p.not_on_turns

    def may_move(self, i: int, side: Optional[str], cls: Optional[str]) -> bool:
        p = self.phases[i]
        if (side is not None and p.side not in (None, side)) or self.left_out(i):
            return False
        return p.moves_class(cls)

    def _retreats_in(self, i: int, side: Optional[str]) -> bool:
        """Units of this side may retreat or advance after a roll in phase i: a combat phase, or (a
        bombardment's) one where the other side's units retreat (`retreats`), where the phase is certain (the
        marker or a chat names it): where it is inferred, the roll may be the next combat phase's, which
        explains the drags of both sides."""
        p = self.phases[i]
        if self.left_out(i):
            return False
        return p.combat or (p.retreats_rule is not None and (side is None or side != p.side)
                            and i == self.index and self.announced_at is not None)

    def _rolled(self, i: int) -> bool:
        return self.rolled_here if i == self.index else self.pending_roll

    def reading(self, side: Optional[str], cls: Optional[str]) -> Optional[tuple[int, str]]:
        """The earliest phase a move by this side/class can fall in from here, and as what
        ("move", or "combat": a retreat or advance after a roll), or None if none is left this turn."""
        if self.index is None:
            return None
        last = self.index + 1 if self.announced_at is not None else len(self.phases)
        for i in range(self.index, last):
            if self.may_move(i, side, cls):
                return i, "move"
            if self._retreats_in(i, side) and self._rolled(i):
                return i, "combat"
        if self.announced_at is not None and self.recorded_at is None and self.pending_roll:
            # a roll after a chat's announcement may open a combat phase the players did not announce; the
            # turn marker's phase holds (a roll in it is in no combat phase, as the combat rules read it)
            for i in range(self.index + 1, len(self.phases)):
                if self.phases[i].combat and not self.left_out(i):
                    return i, "combat"
        return None

    def earlier_phase_for(self, side: Optional[str], cls: Optional[str]) -> Optional[int]:
        """A phase before the current one in which this side/class could have moved (it has passed)."""
        for i in range(self.index or 0):
            if self.may_move(i, side, cls):
                return i
        return None

    def later_phase_for(self, i: int, side: Optional[str], cls: Optional[str]) -> bool:
        return any(self.may_move(j, side, cls) for j in range(i + 1, len(self.phases)))

    def ends_phase(self, ev) -> bool:
        """A later event ends the current phase: the turn marker moves, or a chat line names another phase."""
        if isinstance(ev, TurnChanged):
            return True
        text = getattr(ev, "text", None)
        return text is not None and (i := self.match_announcement(text)) is not None and i != self.current()

    def match_announcement(self, text: str) -> Optional[int]:
        """The phase a chat line names: its side (by side or nationality name) and the phase's words. Of
        phases the words fit alike (Ardennes II's "US Half Reconciliation" in each player turn), the first
        from the current phase on, else the first."""
        if text not in self._named:                # the game's phases are fixed: one reading per text
            if len(self._named) >= 10_000:
                self._named.clear()
            self._named[text] = self._match_announcement(text)
        named = self._named[text]
        if len(named) > 1 and self.index is not None:
            return next((i for i in named if i >= self.index), named[0])
        return named[0] if named else None

    def _match_announcement(self, text: str) -> tuple[int, ...]:
        if "?" in text:
            return ()                              # a question names a phase, it does not announce it
        listed = self._as_known(self._as_sides(_words(text)))
        if (_NOT_YET | _DONE) & set(listed):
            return ()                              # "Red combat phase next, once 11/4 is up": a plan; "... done"
        words = set(listed)
        lead = _LEAD | self._all_side_words()
        best: Optional[int] = None
        tied: list[int] = []
        printed = _printed_names(self.game)
        for i, p in enumerate(self.phases):
            side_words = self._side_words(p.side)
            if p.side and not words & side_words:
                continue
            drop = side_words if p.side else self._all_side_words()   # "(US & German)": whose, not which
            scores = [sc for name in (p.name, *printed.get(p.id, ()))
                      if (sc := _name_score(name, p, listed, words, lead, drop)) is not None]
            if not scores:
                continue
            score = max(scores)
            if best is None or score > best:
                best, tied = score, [i]
            elif score == best:
                tied.append(i)
        return tuple(tied) or self._player_turn(listed)

    def _player_turn(self, listed: list[str]) -> tuple[int, ...]:
        """A line naming a side's player turn and no phase ("Blue's turn", "second player turn"): that side's
        first phase in which its units move."""
        words = [w for w in listed if w not in ("s",)]
        sides = [s for s in self.game.sides if set(words) & self._side_words(s.id)]
        if "turn" not in words or len(sides) != 1:
            return ()
        rest = [w for w in words if w not in _LEAD and w not in self._side_words(sides[0].id)]
        if rest:
            return ()                              # other words: a remark, or a phase the names do not give
        return tuple(i for i, p in enumerate(self.phases) if p.side == sides[0].id and p.moves)[:1]

    def _as_known(self, listed: list[str]) -> list[str]:
        """The chat's words, one that begins a word of a phase's name (four letters or more: "move", "exploit") or is
        a letter or two off one ("Movemnet", "Exploitaton": one edit from six letters, two from nine) read as it."""
        known, seen = self._name_words(), self._word_as
        out = []
        for w in listed:
            if w not in known and len(w) >= 4 and w not in _LEAD:
                if w not in seen:                  # the same words come back line after line: read each once
                    if len(seen) >= 10_000:
                        seen.clear()
                    near = [k for k in known if k.startswith(w)] or (      # "move", "exploit": its beginning
                        [k for k in known if abs(len(k) - len(w)) <= 2 and _edits(w, k) <= (2 if len(k) >= 9 else 1)]
                        if len(w) >= 6 else []) or _stem_begins(w, known)
                    seen[w] = near[0] if len(near) == 1 else w
                w = seen[w]
            out.append(w)
        return out

    def _name_words(self) -> frozenset:
        if self._names_known is None:
            printed = _printed_names(self.game)
            self._names_known = frozenset(w for p in self.phases for name in (p.name, *printed.get(p.id, ()))
                                          for w in _words(name) if len(w) >= 6)
        return self._names_known

    def reads_as_announcement(self, text: str) -> bool:
        """A chat line that names no phase, yet reads as an announcement: it says "phase", or its first word
        after a side's and lead words ("GT 3", "Now:") is one a phase's name begins with; and it is neither a
        question nor a plan ("Second Player Turn: Movement Phase" where no side is called so)."""
        hit = self._reads_as.get(text)
        if hit is None:
            if len(self._reads_as) >= 10_000:
                self._reads_as.clear()
            hit = self._reads_as[text] = self._reads_as_announcement(text)
        return hit

    def _reads_as_announcement(self, text: str) -> bool:
        if "?" in text:
            return False
        listed = self._as_known(_words(text))
        if _NOT_YET & set(listed):
            return False
        if self._key_words is None:
            drop = self._all_side_words()
            self._key_words = frozenset(k[0] for p in self.phases
                                        if (k := [w for w in _words(p.name) if w not in _STOP and w not in drop]))
        known = self._all_side_words()
        first = next((w for w in self._as_sides(listed) if w not in _LEAD and w not in known and w not in _DONE), None)
        return "phase" in listed or first in self._key_words    # it begins with a phase's word, after lead words

    def _as_sides(self, listed: list[str]) -> list[str]:
        """The chat's words, a side named otherwise read as its own word: a plural ("Germans"), an abbreviation of
        three letters or more ("Ger"), "first player" or "second player" (the sides in the order their first
        movement phases come)."""
        known, order = self._all_side_words(), self._player_order()
        out: list[str] = []
        i = 0
        while i < len(listed):
            t = listed[i]
            if t in ("first", "second") and listed[i + 1:i + 2] == ["player"] and len(order) == 2:
                out.append(order[0 if t == "first" else 1])
                i += 2
                continue
            if t not in known and t not in _LEAD and t not in _NOT_A_SIDE:
                hits = {w for w in known if w == t[:-1] or (len(t) >= 3 and w.startswith(t))}
                t = hits.pop() if len(hits) == 1 else t
            out.append(t)
            i += 1
        return out

    def _player_order(self) -> list[str]:
        """A word of each side, in the order the sides' first movement phases come."""
        out: list[str] = []
        for p in self.phases:
            s = self.game.side(p.side) if p.moves and p.side else None
            if s is not None and (w := _words(s.id)) and w[0] not in out:
                out.append(w[0])
        return out

    def _all_side_words(self) -> set[str]:
        out: set[str] = set()
        for s in self.game.sides:
            out |= self._side_words(s.id)
        return out

    def _side_words(self, side_id: Optional[str]) -> set[str]:
        s = self.game.side(side_id) if side_id else None
        if s is None:
            return set()
        out = set(_words(s.id)) | set(_words(s.name))
        for name in s.also_called:
            out |= set(_words(name))
        for n in s.nationalities:
            out |= set(_words(n.name)) | set(_words(n.id))
        return out

    # -- changing --
    def reset(self, phase_id: Optional[str] = None, step: Optional[int] = None, turn: Optional[str] = None) -> None:
        """A new turn begins, or the turn marker names a phase (`step`: where the log recorded it; the
        phase then holds as an announced one does); `turn`: the turn it is (None: unchanged)."""
        self.index = None
        if turn is not None:
            self.turn = turn
        known = next((i for i, p in enumerate(self.phases) if p.id == phase_id), None)
        if self.phases:
            self.index = known if known is not None else 0
        self.rolled_here = self.pending_roll = False
        self.announced_at = self.forced_at = self.recorded_at = None
        if known is not None and step is not None:
            self.announced_at = self.recorded_at = step

    def enter(self, i: int, step: int) -> None:
        """An event falls in phase i (the current one or a later one); past an announced phase, the
        phase is inferred again."""
        if i > self.index:
            self.rolled_here = self.pending_roll
            self.index, self.forced_at, self.announced_at, self.recorded_at = i, step, None, None
        self.pending_roll = False

    def rolled(self) -> None:
        self.rolled_here = self.pending_roll = True

    def announce(self, i: int, step: int) -> bool:
        """Pin phase i; False if it lies before what the events already forced."""
        if self.index is None or i < self.index:
            return False
        if i > self.index:
            self.index, self.forced_at = i, step
            self.rolled_here = False
        self.pending_roll = False
        self.announced_at, self.recorded_at = step, None
        return True
