"""The two sites: the results site of the stored runs (make site) and the generated pages of
the documentation site (make docs).

  build.py           the results site (python -m analysis.site.build): a page per paper, the
                     claims, the records, each page's provenance
  index.py           the answers on its index: per paper, the claims' verdicts and headline figure
  sections.py        an experiment's section: the report's tables as HTML, plotly figures
  neural.py          the Morpion page's neural tables and figures
  records.py         the records page: the leaderboard's certificates, replayed and drawn
  docs_reference.py  the documentation's generated pages: make targets, config options, results
                     index, the claims report's columns
  mkdocs_hooks.py    adds those pages to the documentation site at each build (mkdocs.yml)
"""
