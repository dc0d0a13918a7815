"""The papers' claims and their judging: the claim files (<paper>.yaml, beside this code), the
two claims reports, and what is made of their verdicts.

The claims, judged at a fixed number of runs (python -m analysis.claims.report scale=quick):
  files.py           the claim files and their schema: Claim, load_claims, check_columns
  sources.py         what a claim is read on: an experiment's runs (Source), the neural
                     pipeline's results (NeuralSource); why runs may not judge it (NotJudged)
  paper_settings.py  the runs against the paper's stated settings (settings_gaps) and what runs
                     at those settings would cost (paper_cost)
  basis.py           the comparison a paper makes and where the runs are read for it: published
                     time, matched time (checkpoint_times, check_basis)
  judging.py         the evidence and verdicts at a fixed number of runs (evaluate, claims_table,
                     apply_settings) and the verdicts' words both reports share
  verdicts.py        the fixed-n tests (pure functions on samples)
  report.py          the fixed-n report's text, tables and figure

The claims decided in rounds under a budget (make claims BUDGET=6h):
  sequential.py      anytime-valid p-values from confidence sequences (pure functions)
  decide.py          each claim as contrasts on runs read as prefixes (PrefixSource), and the
                     budgeted report
  campaign.py        the rounds: which claim gets the next runs (python -m analysis.claims.campaign)

The settings the papers leave unsaid (make readings; the cases: analysis/readings.yaml):
  reading_cases.py   the cases, their candidate readings and the committed fit the claims read
  readings.py        each candidate fitted to the papers' published baselines

What the verdicts make, for docs/results/ and the README:
  reproduction.py    one status per published table and figure (make reproduction)
  snapshot.py        a time table at paper scale as the claims read it (make snapshot)
  report_columns.py  what each column of the committed claims and reproduction CSVs holds
"""
