"""Max-min fair filling from a state made once (planner/fairshare.py ``Refilling``): the
resilience report's fills of a large shared set of flows."""

from __future__ import annotations


def test_a_refilling_from_a_base_state_equals_a_fresh_fill_bit_for_bit():
    """Variants of a base set of flows (some gone, others added) filled from the base's state
    get the rates and binding constraints of a fresh fill of each variant."""
    import random

    from planner.fairshare import Refilling, fill_together

    rng = random.Random(7)
    for _ in range(40):
        nh = rng.randint(2, 25)
        caps = [float(rng.choice((100, 150, 200, 400, 133.3, 1e3))) for _ in range(nh)]
        flows = [rng.sample(range(nh), rng.randint(1, min(nh, 5))) for _ in range(rng.randint(2, 30))]
        base = sorted(rng.sample(range(len(flows)), rng.randint(1, len(flows))))
        refill = Refilling(flows, caps, base)
        for _ in range(5):
            chosen = sorted(rng.sample(range(len(flows)), rng.randint(1, len(flows))))
            rate, bott = refill.fill(chosen)
            r0, b0 = fill_together([flows[f] for f in chosen], caps)
            assert [rate[f] for f in chosen] == r0 and [bott[f] for f in chosen] == b0
            assert all(bott[f] is None for f in range(len(flows)) if f not in chosen)


def test_constraints_merged_in_series_give_the_same_shares_bit_for_bit():
    """Of the constraints crossed by exactly the same flows (with the same coefficients) only
    the one that saturates first is kept: the rates and binding constraints of every subset of
    the flows, with coefficients and demands or without, are those of the flows unmerged
    (random sharing, capacities with ties)."""
    import math
    import random

    from planner.fairshare import _fill, series_merged

    rng = random.Random(45)
    merged_some = 0
    for n in range(80):
        nh = rng.randint(3, 30)
        caps = [float(rng.choice((100, 150, 200, 200, 400, 1000, 133.3))) for _ in range(nh)]
        flows = [rng.sample(range(nh), rng.randint(1, min(nh, 6))) for _ in range(rng.randint(1, 25))]
        for fl in flows[: len(flows) // 2]:  # (chains in series: one flow's private constraints)
            fl.extend(rng.sample(range(nh), 2))
        flows = [list(dict.fromkeys(fl)) for fl in flows]
        coef = [[rng.choice((1.0, 0.5, 0.7)) for _ in fl] for fl in flows] if n % 2 else None
        merged, mcoef = series_merged(flows, caps, coef)
        assert sum(map(len, merged)) <= sum(map(len, flows))
        merged_some += sum(map(len, merged)) < sum(map(len, flows))
        for _ in range(4):
            subset = sorted(rng.sample(range(len(flows)), rng.randint(1, len(flows))))
            demands = [rng.choice((math.inf, 50.0, 120.0)) for _ in subset] if n % 3 == 0 else None

            fl0 = [flows[f] for f in subset]
            fl1 = [merged[f] for f in subset]
            c0 = None if coef is None else [coef[f] for f in subset]
            c1 = None if mcoef is None else [mcoef[f] for f in subset]
            want = _fill(fl0, caps, c0, demands)
            got = _fill(fl1, caps, c1, demands)
            assert got == want
    assert merged_some > 20
