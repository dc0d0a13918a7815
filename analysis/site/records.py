"""The records page of the results site (analysis/site/build.py): the leaderboard's best
certificate per instance (experiments/leaderboard.py), each replayed now with the domain's
plain-Python rules (experiments.runs.verify_record) and drawn where the domain has a picture:
a SameGame board with the move that removes each stone, a Weak Schur partition, a TSPTW
tour's schedule against its time windows (SVG written here), a Morpion grid (the PNG of
analysis/results/morpion_grid.py). The drawings go to the site's records/ folder.
"""

from __future__ import annotations

import html
from pathlib import Path

from analysis.results.domain_views import domain_view
from analysis.site.sections import href
from experiments.leaderboard import Leaderboard
from experiments.runs import verify_record
from nrpa.domains import samegame_rules
from nrpa.domains.registry import DOMAINS, replay_domain
from nrpa.errors import InputError

# SameGame's colour codes 0..4 (more cycle), as in the usual renderings of the boards
STONE_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ffbf00", "#9467bd", "#8c564b", "#17becf")
LIGHT_COLOURS = {"#ffbf00", "#17becf"}  # dark move numbers on these, white on the others


def svg(width: float, height: float, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">'
            f"<title>{html.escape(title)}</title>" + "".join(body) + "</svg>\n")


def samegame_svg(domain, clicks) -> str:
    """The starting board, each stone labelled with the number of the move that removes it
    (none: left on the board at the end)."""
    rows = domain.board.rows
    height, width = len(rows), len(rows[0])
    grid = samegame_rules.new_grid(rows)
    # the cells' starting positions, moved by the same gravity as the stones they are under
    origin = [[r * width + c for c in range(width)] for r in range(height)]
    removed_by = {}
    for number, (row, col) in enumerate(clicks, start=1):
        cells = samegame_rules.group_at(grid, row, col)
        removed_by.update({origin[r][c]: number for r, c in cells})
        samegame_rules.remove_group(grid, cells)
        samegame_rules.remove_group(origin, cells)
    size = 26
    body = []
    for r in range(height):
        for c in range(width):
            x, y = c * size, r * size + 20
            colour = STONE_COLOURS[rows[r][c] % len(STONE_COLOURS)]
            body.append(f'<rect x="{x}" y="{y}" width="{size - 1}" height="{size - 1}" fill="{colour}"/>')
            if r * width + c in removed_by:
                ink = "#111111" if colour in LIGHT_COLOURS else "white"
                body.append(f'<text x="{x + size / 2 - 0.5}" y="{y + size / 2 + 3.5}" font-size="10" '
                            f'text-anchor="middle" fill="{ink}">{removed_by[r * width + c]}</text>')
    caption = f"{domain.board.name}: {len(clicks)} moves; each stone shows the move that removes it"
    body.insert(0, f'<text x="0" y="14" font-size="12">{html.escape(caption)}</text>')
    return svg(width * size, height * size + 20, body, caption)


def weakschur_svg(domain, partition) -> str:
    """A row per part, a tick at each of its numbers along 1..N."""
    n = sum(len(part) for part in partition)
    scale, row, left = 800 / n, 22, 110
    body = [f'<text x="0" y="14" font-size="12">1 .. {n}: a tick per number of each part</text>']
    for index, part in enumerate(partition):
        y = 24 + index * row
        body.append(f'<text x="0" y="{y + 13}" font-size="11">part {index + 1} ({len(part)})</text>')
        ticks = "".join(f"M{left + (k - 1) * scale:.2f} {y}h{max(scale, 0.6):.2f}v{row - 4}h-{max(scale, 0.6):.2f}Z"
                        for k in part)
        body.append(f'<path d="{ticks}" fill="{STONE_COLOURS[index % len(STONE_COLOURS)]}">'
                    f"<title>part {index + 1}: {html.escape(' '.join(map(str, part[:60])))}"
                    f"{' ...' if len(part) > 60 else ''}</title></path>")
    return svg(left + 800 + 10, 24 + len(partition) * row, body, f"Weak Schur partition of 1..{n}")


def tsptw_svg(domain, tour) -> str:
    """The tour's schedule: a row per stop in visiting order, its time window as a grey bar
    and the time service starts as a dot, red where it is past the window."""
    instance = domain.instance
    schedule, time, here = [], 0.0, 0
    for node in [*tour, 0]:  # as tsptw_rules.evaluate: wait for a window to open, late past its end
        time = max(time + instance.distance[here][node], instance.ready[node])
        schedule.append((node, time))
        here = node
    horizon = max(max(t for _, t in schedule), max(instance.due[node] for node, _ in schedule))
    scale, row, left = 760 / horizon, 12, 50
    late = sum(t > instance.due[node] for node, t in schedule)
    body = [f'<text x="0" y="14" font-size="12">{html.escape(instance.name)}: {len(tour)} customers, {late} late; '
            "bar: time window, dot: service starts</text>"]
    for index, (node, start) in enumerate(schedule):
        y = 24 + index * row
        ready, due = instance.ready[node], min(instance.due[node], horizon)
        body += [f'<text x="0" y="{y + 9}" font-size="9">{"depot" if node == 0 else node}</text>',
                 f'<rect x="{left + ready * scale:.1f}" y="{y + 2}" width="{max((due - ready) * scale, 1):.1f}" '
                 f'height="{row - 4}" fill="#cccccc"/>',
                 f'<circle cx="{left + start * scale:.1f}" cy="{y + row / 2}" r="3.5" '
                 f'fill="{"#d62728" if start > instance.due[node] else "#2ca02c"}"><title>node {node}: starts at '
                 f'{start:g}, window [{instance.ready[node]:g}, {instance.due[node]:g}]</title></circle>']
    return svg(left + 770, 30 + len(schedule) * row, body, f"TSPTW {instance.name} tour schedule")


SVG_DRAWINGS = {"samegame": samegame_svg, "weakschur": weakschur_svg, "tsptw": tsptw_svg}


def draw(name: str, domain, moves, stem: Path) -> Path | None:
    """The certificate's picture under ``stem`` (.svg, or Morpion's .png); None for a domain
    without one."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    if name in SVG_DRAWINGS:
        path = stem.with_name(f"{stem.name}.svg")  # not with_suffix: keys have dots (tsptw/rc_204.1)
        path.write_text(SVG_DRAWINGS[name](domain, moves))
        return path
    picture = domain_view(name).draw_solution
    return None if picture is None else picture(domain, moves, stem.with_name(f"{stem.name}.png"))


def records_html(outputs_root: Path, folder: Path) -> str:
    """A table per domain: each instance's best certificate, its score, whether it replays to
    that score now, what found it, and its drawing."""
    board = Leaderboard(outputs_root)
    keys = sorted(path.relative_to(board.root).with_suffix("").as_posix() for path in board.root.glob("*/*.json"))
    if not keys:
        return ('<p class="missing">No records yet: the leaderboard (outputs/leaderboard/) is empty. Every finished '
                "run is offered to it; <code>make leaderboard</code> offers the stored and archived runs.</p>")
    parts, domain_name = [], None
    for key in keys:
        entry = board.best(key)
        if entry is None:  # damaged, and moved aside by the leaderboard
            continue
        name = entry["config"]["domain"]["name"]
        if name != domain_name:
            if domain_name is not None:
                parts.append("</tbody></table></div>")
            domain_name = name
            parts.append(f'<h2 id="{html.escape(name)}">{html.escape(name)}</h2><div class="table"><table><thead><tr>'
                         "<th>instance</th><th>score</th><th>replayed now</th><th>found by</th><th>found</th>"
                         "<th>drawing</th></tr></thead><tbody>")
        parts.append(record_row(key, entry, folder))
    parts.append("</tbody></table></div>")
    return "\n".join(parts)


def record_row(key: str, entry: dict, folder: Path) -> str:
    """A certificate whose instance file is gone (nrpa.domains.registry.replay_domain) gets a
    row that says so, without a drawing: the page is still written."""
    moves = entry["certificate"]["moves"]
    # the check `make verify` makes of a run file: the certificate replays to its score
    verified, message = verify_record({"config": entry["config"], "certificate": entry["certificate"],
                                       "result": {"best_score": entry["score"]},
                                       "domain_info": {"instance_file": entry.get("instance_file")}})
    mark = {True: '<span class="verified">&#10004; verified</span>',
            False: '<span class="unverified">&#10008; not verified</span>',
            None: '<span class="unverified">&#10008; not replayed</span>'}[verified] + f": {html.escape(message)}"
    try:
        domain = replay_domain(entry["config"]["domain"], entry.get("instance_file"))[0]
    except InputError:  # its instance file is gone, or its options are not valid: the message says which
        domain = None
    picture = draw(entry["config"]["domain"]["name"], domain, moves, folder / "records" / key.replace("/", "_")) \
        if verified else None
    link = href(f"records/{picture.name}") if picture else ""
    drawing = (f'<a href="{link}"><img class="record" src="{link}" '
               f'alt="{html.escape(key)}"></a>' if picture else f"{len(moves)} moves; no drawing")
    config = entry["config"]
    found_by = " ".join(f"{k}={config[k]}" for k in ("algorithm", "level", "N", "P") if k in config)
    # the instance as the record names it when it cannot be read any more
    instance = domain.describe()["instance"] if domain else _instance_name(config["domain"])
    return (f'<tr><td>{html.escape(instance)}<br><code>{html.escape(key)}</code></td>'
            f'<td>{entry["score"]:g}</td><td>{mark}</td><td>{html.escape(found_by)}<br>run '
            f'<code>{html.escape(entry["run_id"])}</code></td><td>{html.escape(entry["found_at"])}</td>'
            f"<td>{drawing}</td></tr>")


def _instance_name(options: dict) -> str:
    """``domain.board=...`` (or the domain's own instance option) from a record's options; a
    domain no code knows (a record shared from elsewhere) is named as the record names it."""
    if options["name"] not in DOMAINS:
        return f"{options['name']} (no domain of this name here)"
    option = DOMAINS[options["name"]].instance_option
    return f"{options['name']}, domain.{option}={options.get(option)}" if option else options["name"]
