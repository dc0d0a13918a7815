"""What each column of the committed reports holds: the claims report under a budget
(claims_<scale>_decided.csv) and the reproduction status (reproduction.csv). The reference page
docs/reference/claims-columns.md is generated from these (analysis/site/docs_reference.py), and
tests/test_report_columns.py checks that the committed CSVs have exactly these columns."""

CLAIMS = {
    "paper": "the paper the claim is from (its claim file's `paper:`)",
    "kind": "paper (the paper's own sentence), transfer (a paper's claim carried to another domain or algorithm) "
            "or observation (the harness's own)",
    "claim": "the claim's id in analysis/claims/<file>.yaml",
    "text": "the claim in one sentence",
    "experiment": "the experiment (conf/experiment/) or neural step whose runs the claim reads",
    "test": "compare, value, total, gain or speedup (analysis/claims/verdicts.py)",
    "claim_basis": "the comparison the paper makes: equal time, equal playouts, complete searches, final scores, "
                   "wall time",
    "unit": "the unit of the effect: the paper's unit of its table, with its scale",
    "source": "where in the paper, the verbatim quote, and the published numbers it reads",
    "paper_settings": "the settings the paper states for it (and those it leaves unsaid: unstated)",
    "reading": "how the runs read what the paper leaves unsaid, and what that reading rests on",
    "against_text": "where the reading departs from a setting the paper's text states: what the text says and what "
                    "the runs do (such a verdict never lifts a table's status: analysis/claims/status.py)",
    "gaps": "how the runs differ from the paper's settings (an unstated setting read, cores, budget, ...)",
    "reading_fit": "for a claim on a named reading: each unsaid setting's reading and how the paper's published "
                   "baseline column judged it (chosen, not told apart, rejected; cells inside our 95% interval; "
                   "docs/results/readings.md), or that no published column tests it (argued only)",
    "why": "for a row without a verdict: needs hardware, needs compute (not run at the paper's settings), no "
           "run can test it, or its reading does not fit the paper's published baseline (the last two: not judged)",
    "judged_on": "for a paper claim with a verdict: the stated settings, or a named reading (of a setting the "
                 "paper leaves unsaid: the reading column)",
    "paper_cost": "what runs at the paper's settings take, in words, with the command",
    "paper_cost_hours": "the same in CPU-hours on one core (NaN: some column not priced)",
    "paper_cost_parts": "the same by column, JSON {\"column (its search's hash)\": CPU-seconds}: a total over "
                        "claims that read the same search counts it once",
    "columns": "the experiment's columns (variant keys) the claim reads",
    "runs": "runs per column behind the verdict: the fewest among the claim's columns",
    "cpu_seconds": "CPU-seconds of the runs behind the claim (its columns' runs, all of them)",
    "min_runs": "runs per column before a verdict can be read",
    "starved": "runs set aside as starved, per column",
    "cpu_seconds_by_column": "the same CPU-seconds by column (named by its search), JSON: a total over claims "
                             "counts a search once",
    "basis": "the reading of the runs the verdict rests on (e.g. equal time, matched: t x R x rho playouts)",
    "evaluated_at": "where the claim was judged: the checkpoints, or final scores",
    "detail": "the deciding comparison, or why no effect could be read",
    "engine_split": "for a compare claim at equal time on a table the C++ reference engine has runs of: each pair's "
                    "gain split in two, one line a pair and time (> 0: as claimed): the gain at equal playouts (t x R) "
                    "on our runs and the reference engine's, and what each engine's relative speed (rho, rho_ref) adds "
                    "(analysis/claims/gain_split.py split_pair; empty elsewhere)",
    "other_clock_verdict": "where the table's baseline does not tell the reference engine's clock apart from t x R x rho "
                           "(engines.clock_decision): the claim's verdict at the reference clock (campaign.with_other_clock; "
                           "empty elsewhere)",
    "other_clock_runs": "the runs per column behind other_clock_verdict",
    "other_clock": "the same in words: the verdict at the reference clock, its deciding comparison's effect and 95% "
                   "confidence sequence",
    "effect": "the deciding comparison's mean, > 0 meaning as claimed, in the unit column's unit",
    "effect_low": "the low end of its 95% confidence sequence (that comparison alone, not Holm-corrected)",
    "effect_high": "the high end",
    "standardized": "the effect over the SD of the runs (a gain claim: log2 late / early gain)",
    "standardized_low": "the low end of its interval, standardized",
    "standardized_high": "the high end, standardized",
    "p_support": "anytime-valid p-value for the claim (before Holm)",
    "p_contradict": "anytime-valid p-value for its opposite (before Holm)",
    "published": "the paper's own value of the same comparison, in the same unit and sign (NaN: none)",
    "magnitude": "the claim's second answer: does the paper's own value of each of its comparisons fit ours "
                 "(published_inside of published_compared)? inside, outside: the paper's above ours, outside: the "
                 "paper's below ours (the worst comparison's side); empty where there is no judged effect or no "
                 "published value (analysis/claims/status.py)",
    "published_inside": "of the claim's comparisons with a published value, those whose value fits ours: abs(z) within "
                        "the Bonferroni bound at 5% over them, z = (our mean - the paper's) / (sd x sqrt(1/n + 1/N)) at "
                        "our final n, N the paper's runs a column (sequential.against_published)",
    "published_compared": "the claim's comparisons with a published value",
    "published_z": "the worst of them: its z, ours minus the paper's in standard errors",
    "p_support_holm": "p_support, Holm-corrected within the claim's family",
    "p_contradict_holm": "p_contradict, Holm-corrected",
    "family": "the claims with a p-value in the Holm family (a kind; within it, those at the stated settings, "
              "those on a named reading, and those not run at the paper's settings, three families)",
    "verdict": "supported, contradicted, inconclusive, not run (at the paper's settings: why says what it "
               "needs) or not judged (no run can test it, or its reading does not fit the paper's published "
               "baseline: why says which)",
    "scaled_down_verdict": "for a row not run at the paper's settings: what our scaled-down runs say (never "
                           "counted as a verdict)",
    "runs_to_decide": "for an inconclusive claim: about how many runs per column would decide it",
    "cpu_hours_to_decide": "CPU-hours of those runs, each column's missing runs at its own cost",
    "cap": "the most runs per column a campaign makes",
    "cpu_hours": "cpu_seconds in hours",
    "to_decide": "what an undecided claim needs, in words",
    "item": "the tables and figures of the paper the claim reads (from its source)",
}

REPRODUCTION = {
    "paper": "the paper",
    "item": "the table or figure",
    "shows": "what it shows, one line",
    "basis": "the comparison the paper makes",
    "status": "reproduced, reproduced on a reading, qualitatively reproduced, partly reproduced, not reproduced, "
              "inconclusive, no reading fits, not run: needs hardware, not run: needs compute (the rule: "
              "analysis/claims/status.py)",
    "detail": "what decided the status: the claims' directions, their published values that do not fit ours, the "
              "published baseline's fit at the table's R and the other columns' at R x rho, the sample; for needs "
              "hardware, the machine",
    "claims": "the paper's claims read on the item",
    "claims_supported": "of them supported",
    "claims_contradicted": "contradicted",
    "claims_inconclusive": "inconclusive",
    "claims_not_run": "not run at the paper's settings, or not judged",
    "directions": "the verdicts of the judged claims the status reads (those on a reading against the text stand "
                  "apart where the item has others), counted",
    "magnitudes": "of the same claims, those whose published values do not fit ours (or: all fit)",
    "effects_outside": "of the same claims with a published value to compare, those whose value does not fit ours "
                       "(status.magnitude)",
    "effects_compared": "the same claims with a published value to compare",
    "baseline_fit": "the published baseline's fit at the table's R (the one R its claims read) on the runs they "
                    "read (analysis/claims/campaign_fit.py); empty for an item without a baseline curve",
    "baseline_fits": "yes or no: whether that baseline fits (empty: no curve)",
    "other_columns_fit": "of the other published columns, those that fit ours by the same test at their matched work, "
                         "t x R x rho (\"0 of 7\")",
    "sample": "our fewest runs a column of the paper's, where both are one number",
    "runs_per_column": "our runs per column behind the cells (the time tables at matched time; Morpion Table 2: "
                       "games)",
    "paper_runs_per_column": "the paper's runs (games) per column, as its claims' settings state them",
    "cells": "published cells compared",
    "cells_inside": "of them inside our 95% interval",
    "cells_unfitted": "published cells of the columns R is not fitted on (R: the published runs' rate, fitted on the "
                      "baseline column's cells; Morpion: the rows other than Uniform, which chose the game)",
    "cells_unfitted_inside": "of them inside our 95% interval",
    "final_cells": "the last published row beside ours, mean [95% CI]",
    "effects": "each judged claim's two answers: its verdict, and the paper's effect beside ours [95% CI] with "
               "where it lies (inside, or outside)",
    "in_short": "what qualifies the status in the README's sentence, read on the claims the status reads",
    "cpu_hours_to_run": "CPU-hours on one core of the runs the claims not run need, each run counted once",
    "command": "the command that makes them",
    "claim_ids": "the claims read on the item",
    "target": "the make target that makes our table and figure of it",
    "snapshot": "its committed paper-scale snapshot under docs/results/, if any",
    "note": "what the status alone does not say (a claim no run can test, a cost priced on our choice)",
    "readings": "each claim judged on a named reading, with the reading (\" | \" between claims)",
}
