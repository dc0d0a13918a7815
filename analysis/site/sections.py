"""An experiment's section of the results site (analysis/site/build.py): the report's own tables
(analysis.results.report.REPORTS, with their captions) as HTML, and interactive plotly figures drawn
from the same tables' frames. Nothing here computes a statistic: every number shown is a
cell of a report table.

A figure is embedded as its plotly JSON, {"data": [trace, ...], "layout": {...}}, in a
``<script type="application/json" class="figure-data" data-target="ID">`` that the site's
site.js draws into the ``<div id="ID">`` before it. Each trace of a column has the column's
name as its ``legendgroup``, so a click on the legend toggles the whole column (line, band,
published points); the published points, drawn in every column's colour, have a grey legend
key of their own, as in the PNGs. The hover text of a point is its ``text`` (the cell's mean,
CI, n and published value). The colours are the PNGs' (analysis/results/palette.py).
"""

from __future__ import annotations

import html
import math
import re
from pathlib import Path
from urllib.parse import quote

import matplotlib.pyplot as plt
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from analysis.results.palette import KEY_GREY, column_colour
from analysis.results.report import REPORTS, Figure, Runs, Table, variant_key
from analysis.stats import t_interval
from analysis.results.tables import markdown_text
from experiments.experiment import Experiment
from nrpa.errors import InputError

NO_RUNS = "no runs"
HOVER = "%{text}<extra></extra>"  # a point's hover: its text alone (no trace name box beside it)


# --- numbers and text -------------------------------------------------------------------

def number(value, spec: str = ".5g") -> str:
    return "-" if value is None or pd.isna(value) else format(value, spec)


def values(series) -> list:
    """A column as a JSON list: NaN and infinities become null (plotly leaves a gap)."""
    return [None if pd.isna(v) or math.isinf(v) else float(v) for v in series]


def href(path: str) -> str:
    """A file name (or relative path) of the site as an href or src attribute's value:
    percent-encoded, so that no character of it (a record's key, a name) ends the attribute."""
    return html.escape(quote(str(path)))


def inline(text: str) -> str:
    """A line of the report's Markdown as HTML: escaped, **bold** and `code` kept."""
    text = html.escape(text, quote=False)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", text)


def missing_note(text: str) -> str:
    return f'<p class="missing">{inline(text)}</p>'


# --- the report's Markdown as HTML --------------------------------------------------------

def markdown_html(text: str, labels: list[str], missing: list[str]) -> str:
    """A report's Markdown (caption paragraphs and the pipe tables pandas writes) as HTML. A
    table with a column per experiment column gets one saying "no runs" for each of
    ``missing`` (the report leaves such columns out, or fills them with '-'); a table with a
    row per column (its first heading: variant), a row saying so."""
    parts = []
    for block in text.strip().split("\n\n"):
        lines = block.splitlines()
        if lines[0].startswith("|"):
            parts.append(pipe_table(lines, labels, missing))
        else:
            parts.append('<p class="caption">' + "<br>".join(inline(line) for line in lines) + "</p>")
    return "\n".join(parts)


def pipe_table(lines: list[str], labels: list[str], missing: list[str]) -> str:
    def cells(line: str) -> list[str]:  # split at the pipes that markdown_cell did not escape
        return [markdown_text(cell.strip()) for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]

    heading, rows = cells(lines[0]), [cells(line) for line in lines[2:]]  # lines[1]: the |---| rule

    def column_of(cell: str) -> str | None:  # "NRPA" or the boards' "NRPA: best / mean"
        return next((label for label in labels if cell == label or cell.startswith(f"{label}:")), None)

    if any(column_of(cell) for cell in heading):
        shown = {column_of(cell) for cell in heading}
        for index, cell in enumerate(heading):
            if column_of(cell) in missing:
                for row in rows:
                    row[index] = NO_RUNS
        absent = [label for label in missing if label not in shown]
        heading += absent
        rows = [row + [NO_RUNS] * len(absent) for row in rows]
    elif heading[0] == "variant":
        rows += [[label, NO_RUNS] + [""] * (len(heading) - 2) for label in missing]
    head = "".join(f"<th>{inline(cell)}</th>" for cell in heading)
    body = "\n".join("<tr>" + "".join(
        f'<td class="missing">{NO_RUNS}</td>' if cell == NO_RUNS else f"<td>{inline(cell)}</td>" for cell in row)
        + "</tr>" for row in rows)
    return f'<div class="table"><table><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table></div>'


# --- figures ----------------------------------------------------------------------------

def figure_html(figure_id: str, figure: go.Figure) -> str:
    """The figure's div and its JSON payload; in the payload, which sits in a script element,
    ``<``, ``>`` and ``&`` are JSON's \\u escapes (they occur in strings only): no text of it, a
    column's name or a hover text, can close the element or open another."""
    payload = pio.to_json(figure, validate=True)
    for character in "<>&":
        payload = payload.replace(character, f"\\u{ord(character):04x}")
    figure_id = html.escape(figure_id)
    return (f'<div class="figure" id="{figure_id}"></div>\n'
            f'<script type="application/json" class="figure-data" data-target="{figure_id}">{payload}</script>')


def layout(figure: go.Figure, *, xtitle: str, ytitle: str, log2_ticks=None, log_y: bool = False) -> go.Figure:
    """The site's look; ``log2_ticks``: a log x axis with a tick at each of these (the
    doublings of the tables: a log2 scale, as the report's figures)."""
    figure.update_layout(template="plotly_white", height=480, hovermode="closest",
                         margin=dict(l=70, r=20, t=30, b=60), legend=dict(title="click: show / hide"))
    figure.update_xaxes(title=xtitle)
    figure.update_yaxes(title=ytitle, type="log" if log_y else None)
    if log2_ticks is not None:
        ticks = sorted(set(log2_ticks))
        figure.update_xaxes(type="log", tickvals=ticks, ticktext=[f"{t:g}" for t in ticks],
                            title=f"{xtitle} (log2 scale)")
    return figure


def banded_line(figure: go.Figure, x, y, low, high, name: str, colour: str, text: list[str],
                mode: str = "lines+markers") -> None:
    """A column's line (its legend entry and hover ``text``) over its CI band: the upper bound,
    then the lower one filled up to it, in the line's legend group (no hover, no legend)."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    common = dict(x=values(x), mode="lines", line=dict(width=0), legendgroup=name, showlegend=False,
                  hoverinfo="skip")
    figure.add_scatter(y=values(high), **common)
    figure.add_scatter(y=values(low), fill="tonexty", fillcolor=f"rgba({red},{green},{blue},0.15)", **common)
    figure.add_scatter(x=values(x), y=values(y), mode=mode, name=name, legendgroup=name, line=dict(color=colour),
                       text=text, hovertemplate=HOVER)


def legend_key(figure: go.Figure, name: str, symbol: str, dash: str | None = None) -> None:
    """A legend entry for marks drawn in every column's colour (the published values), in grey,
    as the PNG's: a trace with no point (plotly keeps its entry), in a legend group of its own."""
    figure.add_scatter(x=[None], y=[None], mode="lines+markers" if dash else "markers", name=name, legendgroup=name,
                       showlegend=True, marker=dict(symbol=symbol, size=10, color=KEY_GREY),
                       line=dict(color=KEY_GREY, dash=dash, width=1) if dash else None, hoverinfo="skip")


def cell_text(variant: str, axis_name: str, row) -> str:
    """A checkpoint cell on hover: its mean, CI, runs with a solution and published value."""
    interval = "n/a (fewer than 2 runs)" if pd.isna(row.ci_low) else f"[{number(row.ci_low)}, {number(row.ci_high)}]"
    return (f"<b>{html.escape(variant)}</b><br>{axis_name} {row.checkpoint:g}<br>mean {number(row.mean)}"
            f"<br>95% CI {interval}<br>n = {row.runs - row.runs_without_solution} of {row.runs} runs"
            f"<br>published {number(row.published) if pd.notna(row.published) else 'none'}")


def checkpoint_figure(table: pd.DataFrame, axis_name: str, ytitle: str, matched: pd.DataFrame | None) -> go.Figure:
    """Mean best score per column over the checkpoints with its CI band; the published values
    as hollow circles; with a matched-work table (on the playouts axis), its published values
    at t x R playouts (the published work of t) as hollow squares on dotted lines."""
    figure = go.Figure()
    for index, (variant, rows) in enumerate(table.groupby("variant", sort=False)):
        colour = column_colour(index)
        text = [cell_text(variant, axis_name, row) for row in rows.itertuples()]
        banded_line(figure, rows["checkpoint"], rows["mean"], rows["ci_low"], rows["ci_high"], variant, colour, text)
        if rows["published"].notna().any():
            figure.add_scatter(x=values(rows["checkpoint"]), y=values(rows["published"]), mode="markers",
                               name=f"{variant}, published", legendgroup=variant, showlegend=False,
                               marker=dict(symbol="circle-open", size=10, color=colour), text=text,
                               hovertemplate="published at t (hollow circle)<br>%{text}<extra></extra>")
        if matched is not None and variant in set(matched["variant"]):
            ours = matched[matched["variant"] == variant]
            figure.add_scatter(
                x=values(ours["our_playouts"]), y=values(ours["published"]), mode="lines+markers",
                name=f"{variant}, published at t x R x rho playouts", legendgroup=variant, showlegend=False,
                line=dict(color=colour, dash="dot", width=1), marker=dict(symbol="square-open", size=8),
                text=[f"<b>{html.escape(variant)}</b>: published {number(row.published)} at t = {row.checkpoint:g} s,"
                      f"<br>drawn at t x R x rho = {row.our_playouts:,.0f} playouts (matched time)<br>ours there: mean "
                      f"{number(row.mean)}, 95% CI [{number(row.ci_low)}, {number(row.ci_high)}], n = {row.runs}"
                      for row in ours.itertuples()], hovertemplate=HOVER)
    if table["published"].notna().any():
        legend_key(figure, "published at t (hollow circles)", "circle-open")
    if matched is not None:
        legend_key(figure, "published at t x R x rho playouts (matched time)", "square-open", dash="dot")
    return layout(figure, xtitle=axis_name, ytitle=ytitle, log2_ticks=table["checkpoint"])


def ert_figure(targets: pd.DataFrame, axis: str) -> go.Figure:
    """The fixed-target view: each column's expected running time ERT against the target
    score (log y); a target no run reached has no point."""
    ert = f"ert_{axis}"
    figure = go.Figure()
    for index, (variant, rows) in enumerate(targets.groupby("variant", sort=False)):
        figure.add_scatter(
            x=values(rows["target"]), y=values(rows[ert]), mode="lines+markers", name=variant, legendgroup=variant,
            line=dict(color=column_colour(index)), hovertemplate=HOVER,
            text=[f"<b>{html.escape(variant)}</b><br>target {number(row.target)}<br>ERT "
                  f"{number(getattr(row, ert), '.4g')} s, {number(row.ert_playouts, ',.0f')} playouts"
                  f"<br>reached by {row.reached} of {row.runs} runs"
                  for row in rows.itertuples()])
    return layout(figure, xtitle="target score", ytitle="ERT (s, log scale)", log_y=True)


def speedup_figure(table: pd.DataFrame) -> go.Figure:
    """k(t) per variant with its CI band over log2 wall time."""
    figure = go.Figure()
    for index, (variant, rows) in enumerate(table.groupby("variant", sort=False)):
        text = [f"<b>{html.escape(variant)}</b><br>wall seconds {row.checkpoint:g}<br>speed-up k "
                f"{number(row.speedup, '.3g')}<br>95% CI [{number(row.ci_low, '.3g')}, {number(row.ci_high, '.3g')}]"
                + ("<br>beyond the sequential budget" if row.censored else "") for row in rows.itertuples()]
        banded_line(figure, rows["checkpoint"], rows["speedup"], rows["ci_low"], rows["ci_high"], variant,
                    column_colour(index), text)
    return layout(figure, xtitle="wall seconds", ytitle="speed-up k over sequential", log2_ticks=table["checkpoint"])


def boards_figure(table: pd.DataFrame, algorithms: list[str]) -> go.Figure:
    """Per board each algorithm's best score (hover: best, mean, CI, runs); the published
    columns and the leaderboard as hollow markers."""
    boards = table[table["board"] != "Total"]
    figure = go.Figure()
    for index, algorithm in enumerate(algorithms):
        figure.add_scatter(
            x=list(boards["board"]), y=values(boards[f"{algorithm} best"]), mode="lines+markers", name=algorithm,
            legendgroup=algorithm, line=dict(color=column_colour(index)), hovertemplate=HOVER,
            text=[f"<b>{html.escape(algorithm)}</b>, board {row['board']}<br>best {number(row[f'{algorithm} best'])}"
                  f"<br>mean {number(row[f'{algorithm} mean'])}, 95% CI [{number(row[f'{algorithm} ci_low'])}, "
                  f"{number(row[f'{algorithm} ci_high'])}]<br>n = {row[f'{algorithm} runs']:.0f} runs"
                  for _, row in boards.iterrows()])
    others = [c for c in table.columns if c.startswith("published ")] + ["leaderboard"]
    for index, column in enumerate(others, start=len(algorithms)):
        figure.add_scatter(x=list(boards["board"]), y=values(boards[column]), mode="markers", name=column,
                           legendgroup=column, marker=dict(symbol="square-open", size=9, color=column_colour(index)),
                           hovertemplate=f"{html.escape(column)}, board %{{x}}: %{{y}}<extra></extra>")
    return layout(figure, xtitle="board", ytitle="best score")


def profile_figure(profile: pd.DataFrame) -> go.Figure:
    figure = go.Figure()
    for index, (algorithm, rows) in enumerate(profile.groupby("algorithm", sort=False)):
        text = [f"<b>{html.escape(algorithm)}</b><br>tau {row.tau:.3f}: {row.share_above:.2f} of runs above"
                f"<br>95% CI [{row.ci_low:.2f}, {row.ci_high:.2f}]" for row in rows.itertuples()]
        banded_line(figure, rows["tau"], rows["share_above"], rows["ci_low"], rows["ci_high"], algorithm,
                    column_colour(index), text, mode="lines")
    return layout(figure, xtitle="normalized score tau (score / the board's best known)",
                  ytitle="share of runs above tau")


def finals_figure(table: pd.DataFrame) -> go.Figure:
    """Per variant its mean final score with the CI as error bars; the published mean and max
    as a hollow circle and triangle."""
    figure = go.Figure()
    for index, row in table.reset_index(drop=True).iterrows():
        colour, variant = column_colour(index), row["variant"]
        published = row.get("published mean", float("nan"))
        figure.add_scatter(
            x=[variant], y=values([row["mean"]]), mode="markers", name=variant, legendgroup=variant,
            marker=dict(color=colour, size=10, symbol="square"),
            error_y=dict(type="data", symmetric=False, array=values([row["ci_high"] - row["mean"]]),
                         arrayminus=values([row["mean"] - row["ci_low"]])),
            hovertemplate=HOVER,
            text=[f"<b>{html.escape(variant)}</b><br>mean {number(row['mean'])}<br>95% CI [{number(row['ci_low'])}, "
                  f"{number(row['ci_high'])}]<br>n = {row['runs']} runs, max {number(row['max'])}<br>published "
                  f"{number(published) if pd.notna(published) else 'none'}"])
        for column, symbol in (("published mean", "circle-open"), ("published max", "triangle-up-open")):
            if pd.notna(row.get(column, float("nan"))):
                figure.add_scatter(x=[variant], y=[float(row[column])], mode="markers", name=f"{variant}, {column}",
                                   legendgroup=variant, showlegend=False,
                                   marker=dict(color=colour, size=11, symbol=symbol),
                                   hovertemplate=f"{html.escape(variant)}: {column} %{{y}}<extra></extra>")
    for column, symbol in (("published mean", "circle-open"), ("published max", "triangle-up-open")):
        if column in table and table[column].notna().any():
            legend_key(figure, column, symbol)
    return layout(figure, xtitle="variant", ytitle="final score")


# --- the section ------------------------------------------------------------------------

def column_runs(experiment: Experiment, runs: Runs) -> dict[str, tuple[int, int]]:
    """Per column (the paper's column name): (runs found, runs planned), over every board of a
    20-board table."""
    counts: dict[str, tuple[int, int]] = {}
    for variant in experiment.variants:
        have, planned = counts.get(variant.label, (0, 0))
        counts[variant.label] = (have + len(runs.records[variant_key(experiment, variant)]), planned + variant.repeats)
    return counts


def engine_speed_text(outputs: list) -> str | None:
    """The engine-speed factor k (a measurement of this engine) and the published runs' rate R
    (the matched-work budgets) of a published time table's report, in words."""
    speed = next((o.frame.iloc[0] for o in outputs if isinstance(o, Table) and o.suffix == "_engine_speed"), None)
    if speed is None:
        return None
    parts = []
    if pd.notna(speed["k"]):
        parts.append(f"engine-speed factor k = {speed['k']:.2f} [{speed['ci_low']:.2f}, {speed['ci_high']:.2f}] "
                     "per CPU-second, estimated from these runs")
    if pd.notna(speed["R"]):
        estimated = ("" if pd.isna(speed["rate"]) else
                     f" ({speed['rate']:,.0f} [{speed['rate_ci_low']:,.0f}, {speed['rate_ci_high']:,.0f}] "
                     "from these runs)")
        parts.append(f"matched time at t x R x rho playouts, R = {speed['R']:,.0f} [{speed['R_ci_low']:,.0f}, "
                     f"{speed['R_ci_high']:,.0f}] per published second{estimated}")
    return "; ".join(parts) or "engine-speed factor k: not estimable from these runs"


def section_id(experiment: Experiment) -> str:
    """The anchor of an experiment's section (and the stem of its figures' ids): its name, and
    _work for its matched-work runs (a published time table has both on the site)."""
    return experiment.name + ("_work" if experiment.matched_work else "")


def section_html(experiment: Experiment, runs: Runs, outputs: list | None, error: str | None,
                 folder: Path) -> str:
    """The body of an experiment's section: a note when it has no runs (or its report could
    not be made), else its tables and figures by report kind. Images go to ``folder``/img."""
    counts = column_runs(experiment, runs)
    labels = list(counts)
    missing = [label for label, (have, _) in counts.items() if have == 0]
    starved = {label: n for label, n in runs.starved.items() if n}
    starved_note = [missing_note(f"Runs set aside as starved, other processes having taken their cores, and not "
                                 f"counted: {'; '.join(f'{label}: {n}' for label, n in starved.items())}.")
                    ] if starved else []
    if error is not None:
        return "\n".join([missing_note(error), *starved_note])
    tables = {o.suffix: o for o in outputs if isinstance(o, Table)}
    static = {o.suffix: o for o in outputs if isinstance(o, Figure)}
    name = section_id(experiment)

    def table(suffix: str) -> str:
        return markdown_html(tables[suffix].markdown, labels, missing)

    def image(suffix: str, alt: str) -> str:
        paths = static[suffix].write(folder / "img" / f"{experiment.output_name}{suffix}")
        links = " · ".join(f'<a href="{href(f"img/{p.name}")}">{p.suffix[1:].upper()}</a>' for p in paths)
        return (f'<figure><img src="{href(f"img/{paths[0].name}")}" alt="{html.escape(alt)}">'
                f"<figcaption>{links}</figcaption></figure>")

    parts = []
    if missing:
        parts.append(missing_note(f"No runs at this scale for: {', '.join(missing)}. Their columns say so; "
                                  "the figures have no line for them."))
    parts += starved_note
    if experiment.kind == "checkpoints":
        ylabel = f"mean best: {experiment.unit}" if experiment.unit else "mean best score"
        matched = tables["_matched"].frame if "_matched" in tables else None
        for suffix, heading in (("", "By time"), ("_playouts", "By playouts")):
            if suffix in tables:
                frame = tables[suffix].frame
                axis_name = frame["axis"].iloc[0].replace("_", " ").replace("cpu", "CPU")
                parts += [f"<h3>{heading}</h3>", table(suffix),
                          figure_html(f"{name}-figure{suffix}", checkpoint_figure(
                              frame, axis_name, ylabel, matched if suffix == "_playouts" else None))]
        if matched is not None:
            parts += ["<h3>At matched time</h3>", table("_matched")]
        if "_targets" in tables:
            axis = next(c for c in tables["_targets"].frame.columns if c.startswith("ert_") and c != "ert_playouts")
            parts += ["<h3>Time to a score (fixed-target view)</h3>", table("_targets"),
                      figure_html(f"{name}-ert", ert_figure(tables["_targets"].frame, axis.removeprefix("ert_"))),
                      image("_ecdf", f"{experiment.title}: runtime ECDF")]
        if "_final" in tables and tables["_final"].markdown:
            parts += ["<h3>Final solutions</h3>", table("_final")]
    elif experiment.kind == "boards":
        algorithms = [label for label in labels if label not in missing]
        parts += [table(""), figure_html(f"{name}-figure", boards_figure(tables[""].frame, algorithms))]
        if "_improvement" in tables:
            parts += ["<h3>Comparisons across the boards</h3>", table("_improvement"),
                      figure_html(f"{name}-profile", profile_figure(tables["_profile"].frame))]
    elif experiment.kind == "final":
        parts += [table(""), figure_html(f"{name}-figure", finals_figure(tables[""].frame))]
        if "_best" in static:
            parts.append(image("_best", f"{experiment.title}: the best solution"))
    else:  # speedup
        parts += [table(""), figure_html(f"{name}-figure", speedup_figure(tables[""].frame))]
    return "\n".join(parts)


def make_report(experiment: Experiment, runs: Runs) -> tuple[list | None, str | None]:
    """The report's outputs, or why there are none (no runs; a report that refuses, as a
    speed-up table without runs of its baseline)."""
    if not any(runs.records.values()):
        return None, f"No runs at {experiment.scale} scale: `{experiment.make_command}` makes them."
    try:
        return REPORTS[experiment.kind](experiment, runs, t_interval), None
    except InputError as error:
        return None, f"No table: {error}"
    finally:
        # the figures the report drew stay open in pyplot; closed, the ECDF the site shows still saves
        plt.close("all")

