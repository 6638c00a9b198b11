"""Stacking and mixing at the end of each phase (game.rules: stacking limit and counts, mixing rules).

A stack over the limit is an error only if a player made it (a unit moved or placed into it during
the log): a stack the set-up put there is reported once at the start (HF1005). Where the rules turn
an over-stack into a state (DG) instead of forbidding it, a stack that did not take it is a warning.
The log may end before a phase does: a stack over the limit at the end of the log is a warning.
An over-stack that lasts through several phase ends is one finding, naming those phases: the ledger
carries each stack found wrong at a phase end (`open_stacks`, `open_mixes`, kept by `still_open`)
until a phase end finds it right again or the log ends.
"""
from __future__ import annotations

from typing import Iterator, Optional

from ..positions.stacking import formations_mixed, nationalities_mixed, stack_size
from ..positions.position import Position
from . import Finding, Verdict, found, rule
from .ledger import OpenStack, PhaseRun


def over_limit(v, position: Position) -> list:
    """(hex, side, units, size) for every stack over the limit, by hex."""
    limit = v.game.rules.stacking.limit
    if limit is None:
        return []
    cache = v.look.of(position)
    if "over_limit" not in cache:
        counted = v.look.counted_stacks(position)
        stacks = counted.items()
        if v.game.rules.stacking.counts != "steps":      # units counted: a stack's size is its length
            keys = v.look.shared(position) if limit >= 1 else counted     # over a limit of 1 or more: shared
            stacks = [(k, counted[k]) for k in keys if len(counted[k]) > limit]
        over = [(h, side, units, n) for (h, side), units in stacks if (n := stack_size(v.game, units)) > limit]
        cache["over_limit"] = sorted(over, key=lambda o: (o[0], str(o[1])))
    return cache["over_limit"]


def unmarked(v, position: Position, h: str, units, state: str) -> int:
    """How many of a hex's units show `state` neither on their piece nor by a marker in the hex (one marker
    for one unit, or for all of them where the tree says it marks the stack)."""
    shows = v.facts.marker_states
    bare = sum(1 for c in units if state not in c.state)
    markers = [c for c in position.at(h) if c.kind == "marker" and state in shows.get(c.unit, ())]
    if any((m := v.game.marker(c.unit)) is not None and m.whole_stack for c in markers):
        return 0
    return max(0, bare - len(markers))


def inherited(v, units) -> bool:
    """The stack is (part of) one stack the start position already held over the limit, still in its
    hex, none of it moved: the set-up's doing, not the players' (HF1005 reports it). Once a player drags
    it (all of it at once, as VASSAL drags a stack), where it ends is theirs."""
    homes = {v.facts.start_over.get(c.piece) for c in units}
    if len(homes) != 1 or None in homes:
        return False
    return all(c.piece not in v.ledger.entered for c in units)


def formed_at(v, units) -> Optional[int]:
    steps = [v.ledger.entered[c.piece] for c in units if c.piece in v.ledger.entered]
    return max(steps) if steps else None


def _judge_stacks(v, position: Position, at_log_end: bool) -> Iterator[Finding]:
    """Each players' stack over the limit, as a Finding whose message says what is wrong."""
    st = v.game.rules.stacking
    for h, side, units, n in over_limit(v, position):
        if inherited(v, units):
            continue
        step = formed_at(v, units) if at_log_end else None
        names = tuple(v.label(c) for c in units)
        what = f"{n} {st.counts} of {v.side_name(side)} in {h}, over the stacking limit of {st.limit}"
        if st.penalty:
            missing = unmarked(v, position, h, units, st.penalty)
            if missing:
                yield Finding(message=f"{what}: the rules make them {st.penalty.upper()}, and {missing} of them are "
                                      "not marked so", hexes=(h,), units=names, severity="warning", rule=st.rule,
                              side=side, step=step,
                              help=f"mark the over-stacked units {st.penalty.upper()} at the end of the phase")
        else:
            yield Finding(message=what, hexes=(h,), units=names, rule=st.rule, side=side, step=step,
                          severity="warning" if at_log_end else None)


def _stack_key(f: Finding) -> tuple:
    return f.hexes, f.side, tuple(sorted(f.units))


def _phase_name(v) -> str:
    i = v.tracker.current()
    name = v.tracker.name(i) if i is not None else "phase"
    return f"{name} of turn {v.turn}" if v.turn else name


NAMED_PHASE_ENDS = 6          # a finding names at most this many of the phase ends a stack stayed wrong through


def _reported(o: OpenStack, code: str, still: bool) -> Finding:
    """One finding for a stack that stayed wrong through the ends of `o.phases`."""
    f, phases = o.finding, o.phases.names()
    if len(phases) > NAMED_PHASE_ENDS:             # a stack wrong for a long game: its first and last ends
        ends = f"{phases[0]}, the {phases[1]} and {len(phases) - 3} later phases to the {phases[-1]}"
    else:
        ends = phases[0] if len(phases) == 1 else ", the ".join(phases[:-1]) + " and the " + phases[-1]
    tail = f" at the end of the {ends}" + (", and still when the log ends" if still else "")
    return f._replace(message=f.message + tail, step=o.step, code=code)


def _now_wrong(v) -> tuple[list[Finding], list[Finding]]:
    """The stacks over the limit and the mixed ones at this phase end (worked out once per moment)."""
    memo = v.memo()
    if "wrong" not in memo:
        memo["wrong"] = (list(_judge_stacks(v, v.position, at_log_end=False)),
                         list(_mixing_findings(v, v.position, at_log_end=False)))
    return memo["wrong"]


def _closed(v, carried, now: list[Finding], code: str) -> tuple[Finding, ...]:
    """The carried stacks no longer found wrong: each reported once, naming every phase end it lasted."""
    keys = {_stack_key(f) for f in now}
    return tuple(_reported(o, code, still=False) for k, o in carried.items() if k not in keys)


def _carried(v, carried, now: list[Finding]) -> dict:
    phase = _phase_name(v)
    out = {}
    for f in now:
        k = _stack_key(f)
        o = carried.get(k)
        out[k] = OpenStack(o.finding, o.step, o.phases.plus(phase)) if o else \
            OpenStack(f, v.step.index, PhaseRun.of(phase))
    return out


def still_open(v) -> tuple[dict, dict]:
    """The ledger's open stacks and mixes after a phase end (the replay keeps them)."""
    stacks, mixes = _now_wrong(v)
    return _carried(v, v.ledger.open_stacks, stacks), _carried(v, v.ledger.open_mixes, mixes)


@rule("HF1301", "overstacked-at-phase-end", "error",
      "at the end of each phase no hex holds more units than the stacking limit", on="phase-end")
def overstacked_at_phase_end(v) -> Optional[Verdict]:
    """A hex holds more units than the stacking limit at the end of a phase.

    ## What it checks
    At each phase end, every side's stack over the limit that a player made (a unit moved or placed
    into it during the log). A stack that stays over through several phase ends is one finding,
    located at the first of them and naming them all, reported once it is right again or the log ends.
    ## Why
    At the end of every phase a hex may hold at most two units; units may pass through full hexes
    (Meuse 5.1). Where the rules make an over-stack take a state instead (DG), a stack without it is a
    warning.
    ## Reads
    `rules.stacking` (`limit`, `counts`: units or steps, `penalty`, `uncounted`: unit flags that do not
    count, as the Bulge's non-combat units, 10.1), markers' states.
    ## Violation
    Meuse: Red Tank Battalion 2/1 joins two Red units in B10.11 and the Red Movement Phase ends.
    ## Near miss
    A third unit passing through B10.11 on its way, or leaving before the phase ends.
    """
    return found(*_closed(v, v.ledger.open_stacks, _now_wrong(v)[0], "HF1301"))


@rule("HF1302", "overstacked-at-log-end", "warning",
      "move units out of the hex before the phase ends", on="end")
def overstacked_at_log_end(v) -> Optional[Verdict]:
    """A hex holds more units than the stacking limit when the log ends, before its phase does.

    ## What it checks
    When the log ends: the stacks still carried from earlier phase ends (reported as HF1301, saying
    they are still wrong), and stacks over the limit formed since the last phase end (a warning:
    the phase may go on in the next log).
    ## Why
    Stacking is judged at the end of each phase (Meuse 5.1); a log may end mid-phase.
    ## Reads
    as HF1301.
    ## Violation
    Aachen: a US infantry unit from the palette onto a hex already holding one, where Aachen allows one,
    and the log ends.
    ## Near miss
    The same stack broken up before the log ends.
    """
    still = {_stack_key(f) for f in _judge_stacks(v, v.position, at_log_end=False)}
    out = [_reported(o, "HF1301", still=k in still) for k, o in v.ledger.open_stacks.items()]
    for f in _judge_stacks(v, v.position, at_log_end=True):
        if (f.step or 0) <= v.ledger.phase_end_step or _stack_key(f) in v.ledger.open_stacks:
            continue                           # judged at the end of its phase already
        out.append(f._replace(message=f"{f.message} when the log ends (the phase's end is not in the log)"))
    return found(*out)


def _shared_hexes(v, position: Position) -> list:
    """((hex, side), units) of every hex two or more units of one side share (what can mix), by hex."""
    counted = v.look.counted_stacks(position)
    return sorted(((k, counted[k]) for k in v.look.shared(position)), key=lambda kv: (kv[0][0], str(kv[0][1])))


def _made_stacks(v, position: Position, at_log_end: bool) -> list:
    """((hex, side), units) of the shared hexes a player made (a unit of them entered during the log, and not
    the set-up's stack): those the mixing rules judge (read once for all of them)."""
    entered, since = v.ledger.entered, v.ledger.phase_end_step
    return [((h, side), units) for (h, side), units in _shared_hexes(v, position)
            if any(c.piece in entered for c in units) and not inherited(v, units)
            and not (at_log_end and (formed_at(v, units) or 0) <= since)]


def _mixing_findings(v, position: Position, at_log_end: bool) -> Iterator[Finding]:
    rules = v.game.rules.mixing_rules
    made = _made_stacks(v, position, at_log_end) if rules else []
    for mx in rules:
        for (h, side), units in made:
            if mx.not_in_entry_areas:
                units = [c for c in units if not _in_entry_area(v, c, h)]
            if not _may_mix(v.game, mx, units):
                continue                           # one nationality or formation: nothing to part
            stack = Position.of((c, position.where(c.piece)) for c in units)
            names = tuple(v.label(c) for c in units)
            if mx.kind == "nationalities-apart":
                if forced_by_retreat(v, mx, units, side):
                    continue
                for m in nationalities_mixed(v.game, stack, mx):
                    yield Finding(message=f"units of {' and '.join(m.what)} share {h}" +
                                          (" when the log ends" if at_log_end else ""), hexes=(h,), units=names,
                                  rule=mx.rule, severity="warning" if at_log_end else None, side=side)
            elif mx.kind == "divisional-integrity" and mx.penalty:
                for m in formations_mixed(v.game, stack, mx):
                    if unmarked(v, position, h, units, mx.penalty):
                        yield Finding(message=f"units of {len(m.what)} formations ({', '.join(m.what)}) share {h}: "
                                              f"the rules make them {mx.penalty.upper()}, and they are not all marked so",
                                      hexes=(h,), units=names, rule=mx.rule, severity="warning", side=side,
                                      help=f"mark the stack {mx.penalty.upper()} at the end of the phase, or separate it")


def _in_entry_area(v, c, h: str) -> bool:
    """A reinforcement that entered during the log, in its entry area (the area of the line it entered by;
    where that area's hexes are not printed, any hex may be in it)."""
    key = v.ledger.arrived_by.get(c.piece)
    if key is None:
        return False
    line = next((e for e in v.facts.arrival_lines_of.get(c.unit, ()) if e.key == key), None)
    return line is None or line.hexes is None or h in line.hexes


def _may_mix(game, mx, units) -> bool:
    """The units hold two or more of what the mixing rule keeps apart (nationalities, formations); else its
    judgement finds nothing in their hex (read from the units alone, before their stack is made)."""
    if mx.kind == "nationalities-apart":
        got = {u.nationality for c in units if (u := game.unit(c.unit)) and u.nationality in mx.nationalities}
    elif mx.kind == "divisional-integrity":
        got = {u.formation for c in units if (u := game.unit(c.unit)) and u.formation}
    else:
        return True
    return len(got) > 1


def forced_by_retreat(v, mx, units, side) -> bool:
    """The mix may have been forced by a retreat and not yet had its first chance to part (`by_retreat`): a
    unit of it came to the hex by a retreat or advance, and its side's movement phase has not ended since
    (at a phase end, the phase ending is not one)."""
    if mx.by_retreat is None or not any(c.piece in v.ledger.retreated for c in units):
        return False
    p = v.tracker.phase()
    return v.kind != "phase-end" or p is None or not (p.moves and p.side == side)


@rule("HF1311", "mixing-at-phase-end", "error",
      "separate units the mixing rules keep apart before the phase ends", on="phase-end")
def mixing_at_phase_end(v) -> Optional[Verdict]:
    """Units the mixing rules keep apart share a hex at the end of a phase.

    ## What it checks
    At each phase end, a stack a player made in which nationalities kept apart share a hex
    (`nationalities-apart`), or units of several formations share one without the state the rules give
    them (`divisional-integrity`, a warning). Where the rule lets a retreat force them together
    (`by_retreat`), a mix a retreat or an advance may have made is judged only from the end of their
    side's next movement phase, their first opportunity to part. Where the rule spares reinforcements in
    their entry areas (`not_in_entry_areas`), a unit that entered during the log and stands in its line's
    entry area (any hex, where the area's hexes are not printed) is left out.
    ## Why
    Some rules keep nationalities apart or make mixed formations pay a penalty (Ardennes II, Bulge); Bulge
    19.1.5 lets a retreat stack US and UK units until they can separate; Ardennes II 3.1 "Divisional
    Integrity does not apply to Reinforcements in their Entry Areas".
    ## Reads
    `rules.mixing` (kind, nationalities, penalty, except_state, by_retreat, not_in_entry_areas), the units'
    nationality and formation, the orders of arrival.
    ## Violation
    Ardennes II: a German and a US-allied unit of nationalities kept apart end a phase in one hex.
    ## Near miss
    Two units of one nationality, or a mixed stack marked with the penalty's state; Bulge: a UK unit
    retreated onto a US unit in the German Combat Phase, parted before the Allied Movement Phase ends.
    """
    return found(*_closed(v, v.ledger.open_mixes, _now_wrong(v)[1], "HF1311"))


@rule("HF1312", "mixing-at-log-end", "warning",
      "separate units the mixing rules keep apart before the phase ends", on="end")
def mixing_at_log_end(v) -> Optional[Verdict]:
    """Units the mixing rules keep apart share a hex when the log ends, before its phase does.

    ## What it checks
    As HF1311, when the log ends: the mixes carried from earlier phase ends, and those formed since the
    last phase end.
    ## Why
    Mixing is judged at the end of each phase; a log may end mid-phase.
    ## Reads
    as HF1311.
    ## Violation
    A mixed stack formed after the last phase end, still mixed when the log ends.
    ## Near miss
    The same stack separated before the log ends.
    """
    still = {_stack_key(f) for f in _mixing_findings(v, v.position, at_log_end=False)}
    out = [_reported(o, "HF1311", still=k in still) for k, o in v.ledger.open_mixes.items()]
    out += [f for f in _mixing_findings(v, v.position, at_log_end=True) if _stack_key(f) not in v.ledger.open_mixes]
    return found(*out)


def _enemies_sharing(v, at_log_end: bool) -> Iterator[Finding]:
    """Hexes units of two sides share, one of them brought there by a retreat or an advance since the last
    phase end (a move there is HF1202's)."""
    since, retreated = v.ledger.phase_end_step, v.ledger.retreated
    hexes = {w.hex for p, s in retreated.items() if s > since and (w := v.position.where(p)) is not None and w.hex}
    for h in sorted(hexes):                   # only where such a unit stands: no pass over the map at a phase end
        units = [c for c in v.position.at(h) if c.kind == "unit"]
        by_side = {s: None for c in units if (s := v.side_of(c)) is not None}
        came = [c for c in units if retreated.get(c.piece, -1) > since]
        if len(by_side) < 2 or not came:
            continue
        sides = " and ".join(v.side_name(s) for s in sorted(by_side))
        when = "when the log ends (the phase's end is not in the log)" if at_log_end else \
            f"at the end of the {_phase_name(v)}"
        yield Finding(message=f"units of {sides} share {h} {when}: a retreat or an advance ended there",
                      hexes=(h,), units=tuple(v.label(c) for c in units), rule=_after_combat_rule(v),
                      step=max(v.ledger.retreated[c.piece] for c in came), severity="warning" if at_log_end else None)


def _after_combat_rule(v) -> Optional[str]:
    """The rule of retreats and advances: the combat table's `after_combat`, else the combat rule."""
    ct = next((t for t in v.game.tables if t.kind == "combat" and t.after_combat is not None), None)
    return (ct.after_combat.rule if ct is not None and ct.after_combat.rule else None) or v.game.rules.combat.rule


@rule("HF1313", "enemies-share-hex-at-phase-end", "error",
      "a unit never ends in a hex an enemy unit holds: move, retreat or advance it elsewhere", on="phase-end")
def enemies_share_hex_at_phase_end(v) -> Optional[Verdict]:
    """Units of two sides share a hex at the end of a phase.

    ## What it checks
    At each phase end, a hex holding units of two sides, one of which a retreat or an advance brought into
    it since the previous phase end (a move into it is HF1202's). Located at the step it came in. Judged at
    the phase end, whatever the drags' order (an attacker dragged into the hex before its defender was
    dragged out is legal), including where no retreat is judged with its battle (the map not printed).
    ## Why
    No unit may enter a hex an enemy unit holds: Meuse 4.4; Aachen 8.3 ("Under no circumstances may a unit
    retreat into or through a hex occupied by an enemy unit"); Bulge 19.1 and Ardennes II alike.
    ## Reads
    the position (which side each counter is on), the ledger's retreats and advances (`retreated`), the
    combat table's `after_combat.rule` (else `rules.combat.rule`) for the rule cited.
    ## Violation
    Aachen: after an A1 result the US attacker retreats into 2124, where a German unit stands, and the US
    Combat Phase ends.
    ## Near miss
    The attacker advancing into the hex its defender left by a retreat, dragged there before the defender's
    retreat (the hex is the attacker's alone when the phase ends).
    """
    return found(*_enemies_sharing(v, at_log_end=False))


@rule("HF1314", "enemies-share-hex-at-log-end", "warning",
      "a unit never ends in a hex an enemy unit holds: move, retreat or advance it elsewhere", on="end")
def enemies_share_hex_at_log_end(v) -> Optional[Verdict]:
    """Units of two sides share a hex when the log ends, before its phase does.

    ## What it checks
    As HF1313, when the log ends: a hex two sides share, one of them having come in since the last phase end.
    ## Why
    The phase may go on in the next log (the unit dragged out there); it is said, as a warning.
    ## Reads
    as HF1313.
    ## Violation
    A retreat into an enemy-held hex, the log ending before the phase does.
    ## Near miss
    The same unit retreated into an empty hex.
    """
    return found(*_enemies_sharing(v, at_log_end=True))
