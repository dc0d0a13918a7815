"""The papers' claims and their judging: the claim files (<paper>.yaml, beside this code) and
the fixed-n claims report, split by what each part does:

  files.py           the claim files and their schema: Claim, load_claims, check_columns
  sources.py         what a claim is read on: an experiment's runs (Source), the neural
                     pipeline's results (NeuralSource); why runs may not judge it (NotJudged)
  paper_settings.py  the runs against the paper's stated settings (settings_gaps) and what runs
                     at those settings would cost (paper_cost)
  basis.py           the comparison a paper makes and where the runs are read for it: published
                     time, matched time (checkpoint_times, check_basis)
  judging.py         the evidence and verdicts at a fixed number of runs (evaluate, claims_table,
                     apply_settings) and the verdicts' words both reports share
  report.py          the fixed-n claims report's text, tables and figure:
                     python -m analysis.claims.report scale=quick
"""
