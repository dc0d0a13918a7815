"""One palette for the report's figures (matplotlib, analysis/results/plots.py) and the results site's
(plotly, analysis/site/sections.py): the i-th column of a figure has the same colour in the PNG
and on the site.

The colours are matplotlib's default cycle (tab10, "C0".."C9"), the PNGs' colours from the
first report on; the site drew plotly's own cycle before, another blue, red and green for the
same columns.
"""

from __future__ import annotations

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
KEY_GREY = "#4d4d4d"  # a legend key standing for every column's marks (the published values): matplotlib's "0.3"


def column_colour(index: int) -> str:
    """The colour of a figure's ``index``-th column (the palette again after ten)."""
    return PALETTE[index % len(PALETTE)]
