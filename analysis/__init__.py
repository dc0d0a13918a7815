"""What the runs say: reads the stored runs (outputs/runs/, archive/) and writes tables, figures,
verdicts and sites; never imported by experiments/ or nrpa/.

  claims/     the papers' claims and their judging (claims/<paper>.yaml, the claims reports,
              the readings of unsaid settings, the reproduction status)
  results/    an experiment's tables and figures beside the published values
  site/       the results site and the documentation's generated pages
  stats.py    statistics of runs at checkpoints, shared by all three
  api.py      the harness from Python, for a notebook (search, compare)
  budget_fit.py  at what budget our runs would average a published mean
  reference/  the papers' published tables, transcribed; readings.yaml: the unsaid settings' cases

The packages import one way: site/ reads claims/ and results/, claims/ reads results/, and
results/ reads neither (tests/test_arrows.py).
"""
