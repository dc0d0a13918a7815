"""The two generated pages of the documentation: every `make` target (from the Makefile's
`##` lines and the comments above them) and every config option (from the Hydra schema of
experiments/config.py, conf/config.yaml and the domain schemas), so that neither can drift from
the code. analysis/site/mkdocs_hooks.py adds them to the site at build time; tests/test_docs.py checks
that every key appears."""

from __future__ import annotations

import re
import sys
from dataclasses import MISSING, fields
from pathlib import Path

from experiments.experiment_targets import HELP_LINE

ROOT = Path(__file__).resolve().parents[2]  # the project: analysis/site/ is two folders down

# `key: value  # comment` of a YAML file written one key a line, as conf/ is
YAML_LINE = re.compile(r"^(?P<indent> *)(?P<key>[A-Za-z_][\w]*):(?P<rest>.*)$")


def _cell(text: str) -> str:
    """Text for a Markdown table cell: no pipe nor newline breaks the row."""
    return text.replace("|", "\\|").replace("\n", " ").strip()


def _split_comment(rest: str) -> tuple[str, str]:
    """The value and the comment of the text after `key:` (a `#` after a space starts it)."""
    match = re.search(r"(^|\s)#\s?(.*)$", rest)
    if match is None:
        return rest.strip(), ""
    return rest[:match.start()].strip(), match.group(2).strip()


def yaml_comments(path: Path) -> dict[str, tuple[str, str]]:
    """Each key of a conf/ YAML file (dotted below the top level) -> (value as written, its
    comment: the one on its line, else the comment lines just above it). The `defaults:` and
    `hydra:` sections are left out: they are not options."""
    entries: dict[str, tuple[str, str]] = {}
    above: list[str] = []
    parents: list[tuple[int, str]] = []
    skip_indent = None
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            above.append(stripped.lstrip("#").strip())
            continue
        match = YAML_LINE.match(line)
        if match is None:
            above = []
            continue
        indent, key = len(match["indent"]), match["key"]
        if skip_indent is not None and indent > skip_indent:
            continue
        skip_indent = None
        if key in ("defaults", "hydra") and indent == 0:
            skip_indent, above = 0, []
            continue
        while parents and parents[-1][0] >= indent:
            parents.pop()
        dotted = ".".join([name for _, name in parents] + [key])
        value, comment = _split_comment(match["rest"])
        entries[dotted] = (value, comment or " ".join(above))
        above = []
        if value == "":
            parents.append((indent, key))
    return entries


def defaults_comments(path: Path) -> dict[str, str]:
    """The config groups of conf/config.yaml's defaults list -> the comment on their line."""
    groups = {}
    for line in path.read_text().splitlines():
        match = re.match(r"^\s+- (\w+): (\S+)\s*(#\s*(.*))?$", line)
        if match:
            groups[match.group(1)] = (match.group(2), (match.group(4) or "").strip())
    return groups


def set_by_group(key: str, group_comments: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    """(default, meaning) of a top-level key that conf/config.yaml leaves to a config group (the
    `algorithm` of `algo=`): the value in the group's default file and the values it takes."""
    conf = ROOT / "conf"
    for group, (default, _) in group_comments.items():
        values = {path.stem: entries[key][0] for path in sorted((conf / group).glob("*.yaml"))
                  if not path.stem.startswith("_") and key in (entries := yaml_comments(path))}
        if values:
            choices = ", ".join(f"`{group}={name}`: {value}" for name, value in values.items())
            return values.get(default, ""), f"set by the `{group}=` group ({choices})"
    return None


def config_page() -> str:
    """Markdown: every config group, top-level option and domain option, with its default and
    meaning. RuntimeError when a key of the schema has no line in conf/ to describe it."""
    from experiments.config import BackendConfig, RunConfig, StarvedConfig, choosable_groups
    from nrpa.domains.registry import DOMAINS

    conf = ROOT / "conf"
    top = yaml_comments(conf / "config.yaml")
    out = ["# Config options", "",
           "Generated at build time from the Hydra schema (`experiments/config.py`: `RunConfig`, the "
           "backend and starved sections, and each domain's options class registered as "
           "`domain/<name>_schema`), with the defaults and comments of `conf/config.yaml`, "
           "`conf/backend/` and `conf/domain/<name>.yaml`. Any key can be set on the command line "
           "(`level=3`, `domain.board=2`), in `ARGS=\"...\"` of a `make` target, or in an experiment "
           "file. `python run.py --help` prints the same configuration, composed.", "",
           "## Config groups", "", "Choose one file of a group with `group=name` (`algo=snrpa`).", "",
           "| group | default | choices | meaning |", "|---|---|---|---|"]
    group_comments = defaults_comments(conf / "config.yaml")
    for line in choosable_groups().splitlines():
        group, choices = line.split(": ", 1)
        default, meaning = group_comments.get(group, ("", ""))
        out.append(f"| `{group}=` | `{default}` | {_cell(choices)} | {_cell(meaning)} |")

    out += ["", "## Top-level options", "", "| option | default | meaning |", "|---|---|---|"]
    missing = []
    for f in fields(RunConfig):
        if f.name in ("domain", "backend"):
            continue
        keys = [f.name] if f.name != "starved" else [f"starved.{s.name}" for s in fields(StarvedConfig)]
        for key in keys:
            if key in top:
                value, comment = top[key]
            elif grouped := set_by_group(key, group_comments):
                value, comment = grouped
            else:
                missing.append(f"{key} (conf/config.yaml)")
                continue
            out.append(f"| `{key}` | `{_cell(value)}` | {_cell(comment)} |")

    out += ["", "## Backend options", "",
            "`backend=loky` (the default: local worker processes) or `backend=dask` (a running "
            "dask.distributed scheduler).", "", "| option | default (loky / dask) | meaning |", "|---|---|---|"]
    loky, dask = yaml_comments(conf / "backend" / "loky.yaml"), yaml_comments(conf / "backend" / "dask.yaml")
    for f in fields(BackendConfig):
        if f.name not in loky or f.name not in dask:
            missing.append(f"backend.{f.name} (conf/backend/)")
            continue
        comment = "set by `backend=`" if f.name == "name" else (loky[f.name][1] or dask[f.name][1])
        out.append(f"| `backend.{f.name}` | `{_cell(loky[f.name][0])}` / `{_cell(dask[f.name][0])}` | {_cell(comment)} |")

    out += ["", "## Domain options", "",
            "`domain=<name>` chooses the domain (`samegame` by default); its options are `domain.<key>`. "
            "The domains and their instances: [Domains](domains.md)."]
    every = {path.stem: yaml_comments(path) for path in sorted((conf / "domain").glob("*.yaml"))}
    for name, adapter in DOMAINS.items():
        path = conf / "domain" / f"{name}.yaml"
        described = yaml_comments(path) if path.is_file() else {}
        out += ["", f"### `domain={name}`", ""]
        head = path.read_text().split("defaults:")[0] if path.is_file() else ""
        title = " ".join(line.lstrip("#").strip() for line in head.splitlines() if line.startswith("#"))
        if title:
            out += [title, ""]
        out += ["| option | default | meaning |", "|---|---|---|"]
        for f in fields(adapter.options_class):
            if f.name == "name":
                continue
            if f.name in described:
                value, comment = described[f.name]
            else:
                default = f.default if f.default is not MISSING else (
                    f.default_factory() if f.default_factory is not MISSING else "(required)")
                value, comment = repr(default) if isinstance(default, str) else str(default), ""
            if not comment and f.name == "bias":  # every adapter's options have it (nrpa/domains/adapter.py)
                comment = "GNRPA's bias (algo=gnrpa): none | a bias file (.npz/.csv); this domain has no bias of its own"
            elif not comment:  # the same key described in another domain's file
                comment = next((f"as for `domain={other}`: {entries[f.name][1]}" for other, entries in every.items()
                                if other != name and entries.get(f.name, ("", ""))[1]), "")
            out.append(f"| `domain.{f.name}` | `{_cell(value)}` | {_cell(comment)} |")
    if missing:
        raise RuntimeError("config keys without a line in conf/ to document them: " + ", ".join(missing))
    return "\n".join(out) + "\n"


VARIABLE_LINE = re.compile(r"^(?P<name>[A-Z_]+) \?=(?P<rest>.*)$")


def makefile_targets(path: Path = ROOT / "Makefile") -> list[tuple[str, str, str]]:
    """(target, its `##` help, the comment lines just above it) for each documented target."""
    targets, above = [], []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            above.append(line.lstrip("#").strip())
            continue
        match = HELP_LINE.match(line)
        if match:
            target, _, help_text = match.groups()
            targets.append((target, help_text.strip(), " ".join(above)))
        above = []
    return targets


def make_page() -> str:
    """Markdown: the variables a user sets and every target of `make help`, with the details of
    the comment above each target."""
    makefile = ROOT / "Makefile"
    out = ["# `make` targets", "",
           "Generated at build time from the Makefile: each target's `##` line (what `make help` "
           "prints) and the comment above it. Every experiment target takes `SCALE=paper|quick|smoke`, "
           "prints its cost first and runs only what the result store lacks.", "",
           "## Variables", "", "| variable | default | meaning |", "|---|---|---|"]
    above: list[str] = []
    for line in makefile.read_text().splitlines():
        match = VARIABLE_LINE.match(line)
        if match:
            value, comment = _split_comment(match["rest"])
            comment = comment or (above[-1] if above else "")
            out.append(f"| `{match['name']}` | `{_cell(value) or '(empty)'}` | {_cell(comment)} |")
        above = above + [line.lstrip("#").strip()] if line.startswith("#") else []
    out += ["", "## Targets", "", "| target | what | details |", "|---|---|---|"]
    for target, help_text, details in makefile_targets(makefile):
        out.append(f"| `make {target}` | {_cell(help_text)} | {_cell(details)} |")
    return "\n".join(out) + "\n"


def claims_columns_page() -> str:
    """Markdown: every column of the claims report's CSV and of the reproduction status's
    (analysis/claims/report_columns.py)."""
    from analysis.claims import report_columns

    out = ["# The reports' columns", "", "Generated from `analysis/claims/report_columns.py` by `python -m "
           "analysis.site.docs_reference claims-columns`; `tests/test_report_columns.py` checks this page and the committed "
           "CSVs against it.", "",
           "## The claims report: `claims_<scale>_decided.csv`", "", "| column | what it holds |", "|---|---|"]
    out += [f"| `{name}` | {_cell(text)} |" for name, text in report_columns.CLAIMS.items()]
    out += ["", "## The reproduction status: `reproduction.csv`", "", "| column | what it holds |", "|---|---|"]
    out += [f"| `{name}` | {_cell(text)} |" for name, text in report_columns.REPRODUCTION.items()]
    return "\n".join(out) + "\n"


RESULT_GROUPS = [  # file-name prefix -> the heading of its group on the results index
    ("reproduction", "Reproduction status of every published table and figure (`make claims`)"),
    ("claims_", "Claims reports (`make claims`)"),
    ("readings", "Readings of unsaid settings, fitted to the papers' published baselines (`make readings`)"),
    ("engines_", "The C++ reference engine beside this engine: clock and search (`make engines`)"),
    ("selective_", "Selective NRPA"), ("stabilized_", "Stabilized NRPA"), ("distributed_", "Distributed NRPA"),
    ("morpion_", "Morpion Solitaire"), ("family_", "The NRPA family"), ("spmcts_", "SP-MCTS"),
    ("site_", "Screenshots of the results site (`make site`)"), ("bench/", "Benchmarks (`make bench`)"),
]


def results_page(folder: Path = ROOT / "docs" / "results") -> str:
    """Markdown: every committed result snapshot of docs/results/, grouped by paper, each Markdown
    table linked as a page and its CSV, PNG beside it. RuntimeError for a file no group takes."""
    files = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file())
    out = ["# Results", "",
           "The result snapshots committed with the code: the claims reports judged on the archived runs, "
           "the quick-scale tables and figures, benchmark figures and screenshots. Each was written by "
           "the `make` target its page names (the reports' captions say the scale, the runs and the code "
           "version); `make <target> SCALE=quick` writes the same files under `outputs/` from your own "
           "runs. How they were measured: the [engineering notes](../notes/index.md). "
           "Generated from the folder's contents at build time."]
    left = set(files)
    for prefix, title in RESULT_GROUPS:
        mine = [name for name in files if name.startswith(prefix)]
        if not mine:
            continue
        out += ["", f"## {title}", ""]
        stems: dict[str, list[str]] = {}
        for name in mine:
            stems.setdefault(name.rsplit(".", 1)[0], []).append(name)
        for stem, names in stems.items():
            links = ", ".join(f"[{name.rsplit('.', 1)[1]}]({name})" for name in names)
            out.append(f"- `{stem}`: {links}")
        left -= set(mine)
    if left:
        raise RuntimeError(f"docs/results/ files of no group (analysis/site/docs_reference.py RESULT_GROUPS): {sorted(left)}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":  # python -m analysis.site.docs_reference claims-columns: the committed columns page
    if sys.argv[1:] != ["claims-columns"]:
        sys.exit("usage: python -m analysis.site.docs_reference claims-columns")
    (ROOT / "docs" / "reference" / "claims-columns.md").write_text(claims_columns_page())
