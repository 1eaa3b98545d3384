"""bench/tune_options.py: the coordinate search over the engine's weights takes a step only when it misses fewer,
keeps a share of a whole at most 1, and hands the engine options it reads (a `readings` table whole: the engine
merges only the top level)."""

from __future__ import annotations

from bench.tune_options import TUNED, as_options, coordinate_search, default_options, tuned_values


def test_a_step_is_taken_only_when_it_misses_fewer():
    # a miss for each weight off its best value, titleWeight 4 and bodyMatch 0.8: a step of 2 from 2 and 0.4 reaches
    # each; the smaller steps tried before it miss as many and are not taken
    def misses(values):
        return (values["titleWeight"] != 4) + (values["bodyMatch"] != 0.8)

    steps = []
    reached = coordinate_search({"titleWeight": 2, "bodyMatch": 0.4}, misses, passes=3,
                                taken=lambda name, values: steps.append((name, values[name])))
    assert reached == {"titleWeight": 4, "bodyMatch": 0.8}
    assert steps == [("titleWeight", 4), ("bodyMatch", 0.8)]


def test_as_many_misses_is_no_step():
    steps = []
    start = {"titleWeight": 2, "linkWeight": 0.1}
    assert coordinate_search(start, lambda values: 7, passes=4, taken=lambda *_: steps.append(1)) == start
    assert steps == []


def test_a_share_stays_at_most_1_and_a_factor_may_pass_it():
    # fewer misses the larger each value: bodyMatch (a share) stops below 1, titleWeight (a factor) does not
    reached = coordinate_search({"bodyMatch": 0.6, "titleWeight": 0.6},
                                lambda values: -round(100 * (values["bodyMatch"] + values["titleWeight"])), passes=2)
    assert reached["bodyMatch"] == 0.798  # 0.6 × 1.33; 0.798 × 1.33 would be past 1
    assert reached["titleWeight"] == 4.2454  # 0.6 × 1.33 × 2, then × 1.33 × 2 in the second pass


def test_the_options_given_are_the_engines_with_the_values_changed():
    defaults = default_options()
    values = tuned_values(defaults)
    assert set(values) == set(TUNED)
    assert values["titleWeight"] == 2 and values["readings.synonym"] == 0.5  # options.js, as documented
    options = as_options({**values, "readings.synonym": 0.25, "linkWeight": 0.3}, defaults)
    assert options["linkWeight"] == 0.3
    assert options["readings"]["synonym"] == {"weight": 0.25, "penalty": 1}
    assert options["readings"]["typed"] == {"weight": 1, "penalty": 0}
    assert defaults["readings"]["synonym"]["weight"] == 0.5  # the defaults are not changed in place
