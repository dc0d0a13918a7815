"""An experiment's tables and figures, from its stored runs (never a search): what run.py and
`make <experiment>` write under outputs/tables and outputs/figures.

  report.py          the report of an experiment (python -m analysis.results.report): its kind's
                     tables and figures (REPORTS), the runs read once (collect, Runs)
  matched.py         a published time table at matched time: this engine's speed k, the
                     published runs' rate R, each column at t x R x rho playouts
  tables.py          checkpoint statistics beside the published values, as CSV and Markdown
  plots.py           the figures (matplotlib); palette.py: their colours, the site's too
  captions.py        the words of the tables and figures
  boards.py          the 20-board tables and comparisons
  speedup.py         the speed-up of a parallel search over the sequential one, the engine speed
  targets.py         the fixed-target view: expected running time, runtime ECDF
  domain_views.py    what a report shows of a domain's solutions (morpion_grid.py: a Morpion game)
  export.py          every stored run as one long table (make export)
  neural.py          the Morpion paper's neural tables, step by step (make morpion-table1 ..
                     morpion-table4); neural_report.py: their tables and figures
"""
