"""What the reports show of a domain's solutions beyond the score, keyed by domain name.

The domains' adapters (``nrpa/domains/NAME_adapter.py``) know nothing of tables or pictures;
a domain that has more to show gets a ``DomainView`` in ``VIEWS``, whose functions take the
domain's adapter (``nrpa.domains.registry.make_domain``) first:

* ``final_summary(domain, record)``: more about a run's final solution, a dict (TSPTW: its
  violations, cost and gap to the best-known cost); the report makes one row per run;
* ``final_summary_table(domain, rows)``: those rows (a DataFrame, with ``variant`` and
  ``repeat``) summed up per variant, and the caption's note;
* ``draw_solution(domain, certificate, path)``: a picture of a certificate (Morpion's grid),
  the path written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import pandas as pd

from nrpa.domains import tsptw_rules


@dataclass(frozen=True)
class DomainView:
    final_summary: Optional[Callable[..., dict]] = None
    final_summary_table: Optional[Callable[..., tuple[pd.DataFrame, str]]] = None
    draw_solution: Optional[Callable[..., Path]] = None


def tsptw_final_summary(domain, record: dict) -> dict:
    """Violations, cost and gap to the best-known cost of a run's best tour."""
    cost, violations = tsptw_rules.evaluate(domain.instance, record["certificate"]["moves"])
    known = record["domain_info"].get("best_known_cost")
    return {"violations": violations, "cost": cost,
            "gap_percent": 100 * (cost - known) / known if known and violations == 0 else None}


def tsptw_final_summary_table(domain, rows: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """Per variant, from the ``tsptw_final_summary`` rows: runs, feasible runs, mean violations,
    best feasible cost and mean gap; and the caption's note on the best-known cost."""
    summary = rows.groupby("variant", sort=False).agg(
        runs=("repeat", "size"),
        feasible=("violations", lambda v: int((v == 0).sum())),
        mean_violations=("violations", "mean"),
        best_feasible_cost=("cost", lambda c: c[rows.loc[c.index, "violations"] == 0].min()),
        mean_gap_percent=("gap_percent", "mean"),
    )
    known = domain.describe()["best_known_cost"]
    if known is None:
        return summary, f"No best-known cost for {domain.instance.name}: no gap."
    return summary, (f"Best-known cost {known:g} ({domain.best_known_source}); gap = (cost - best known) "
                     "/ best known, over the runs whose tour has no violation.")


def morpion_drawing(domain, certificate, path) -> Path:
    """A picture of the grid the certificate's moves leave (matplotlib imported here only)."""
    from analysis.results.morpion_grid import draw_grid

    return draw_grid(domain.options.variant, certificate, path, line_span=domain.options.line_span,
                     one_sided=domain.options.one_sided)


VIEWS = {
    "tsptw": DomainView(final_summary=tsptw_final_summary, final_summary_table=tsptw_final_summary_table),
    "morpion": DomainView(draw_solution=morpion_drawing),
}


def domain_view(name: str) -> DomainView:
    """The view of domain ``name`` (one with nothing beyond the score where it has none)."""
    return VIEWS.get(name, DomainView())
