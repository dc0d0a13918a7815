"""The claim files, analysis/claims/<paper>.yaml, and their schema (docs/reference/claim-files.md).

load_claims reads every file into Claims, checking what a file alone can get wrong (its keys, the
test a claim names and what that test needs, the paper's settings it states); load_not_tested reads
the papers' comparative sentences that no claim tests. A claim's columns are checked against its
experiment at the report's scale (check_columns), and a claim on the neural pipeline's results
reads the runs of NEURAL_BASELINE beside them (experiment_of).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from experiments.experiment import Experiment, experiment_names, load_experiment
from nrpa.errors import InputError, did_you_mean

CLAIMS_DIR = Path(__file__).resolve().parent  # the claim files live beside this code
TESTS = ("compare", "value", "total", "gain", "speedup")
# The comparison a paper makes, as its claim file states it (`basis:`), and the readings of runs
# that make that comparison: a claim is judged only on a reading of its own basis (check_basis).
# Equal time: the time tables ("given the same computation time"), each column at the same
# seconds (on this engine, or at matched time t x R x rho); equal playouts: the same playouts for
# every column (Distributed Figure 3); complete searches: each search to the end of its top
# level, no budget, no restart (the 20-board totals); final scores: each run's final score
# (Morpion's games; a complete search's is one); wall time: wall-clock seconds on given cores.
CLAIM_BASES = {"equal time": ("equal time",), "equal playouts": ("equal playouts",),
               "complete searches": ("complete searches",), "final scores": ("final scores", "complete searches"),
               "wall time": ("wall time",)}
KEYS = {"id", "kind", "text", "source", "settings", "experiment", "test", "basis", "better", "than", "pairs", "at",
        "axis", "variant", "published", "margin", "from", "needs_cores", "reading", "against_text"}
# paper: the paper's own words, judged only at the paper's settings; transfer: a paper's claim
# carried to another domain or algorithm (e.g. Gelly's, made on Go, to SP-MCTS on SameGame);
# observation: the harness's own. Only paper claims count as the papers'.
KINDS = ("paper", "transfer", "observation")
# The paper's settings a claim file states (`settings:`) that are checked against the runs;
# any other key (rules, cores, nodes, runs, ...) is shown, not checked.
CHECKED = ("seconds", "threads", "jobs", "complete", "level", "N", "unstated",
           # the neural pipeline's (paper_settings.neural_gaps): the networks' training epochs, the games
           # they imitate (at least) and the score filter that kept them, Expert Iteration's hours
           "epochs", "imitation_games", "keep", "hours")
# A claim's `experiment:` naming a step of the neural pipeline (NeuralSource): the step's results
# file at the report's scale (experiments/neural.py, RESULTS), made by the `make` target beside it.
NEURAL = {"neural_table1": "table1", "neural_table2": "table2", "neural_table3": "table3",
          "neural_table4": "table4"}
MAKE_TARGETS = {"table1": "morpion-table1", "table2": "morpion-table2", "table3": "morpion-table3",
                "table4": "morpion-table4"}
# The experiment of the paper's other Table 2 rows: a claim may set a network's games beside its
# Uniform or NRPA(L) runs (its columns, at the same scale).
NEURAL_BASELINE = "morpion_table2"


@dataclass(frozen=True)
class NotTested:
    """A comparative sentence of a paper that no claim tests, and why (a file's `not_tested:`)."""
    paper: str
    where: str
    quote: str
    why: str
    file: str = ""


@dataclass(frozen=True)
class Claim:
    paper: str
    id: str
    text: str
    experiment: str
    test: str
    pairs: tuple[tuple[str, str], ...] = ()  # compare, total: (better, worse) variant labels
    at: object = "last"  # "every", "last", or a list of published times
    axis: str | None = None  # None: the experiment's time axis; or "playouts"
    variant: str | None = None  # value, gain
    published: str | None = None  # value: the published table's column
    margin: float | None = None  # value
    start: float | None = None  # gain: its first checkpoint
    kind: str = "paper"  # one of KINDS
    where: str = ""  # the section, table or figure it comes from
    quote: str = ""  # the sentence it rests on, verbatim ("[...]" marks a cut; tests/test_quotes.py)
    figures: str = ""  # the published numbers it reads (table cells), as the paper prints them
    settings: tuple = ()  # the paper's settings for it, (key, value) pairs (see CHECKED)
    file: str = ""  # the claims file's stem (analysis/claims/<file>.yaml)
    needs_cores: int = 0  # wall-clock claims: the cores the runs must have had (0: any)
    basis: str = "equal time"  # the comparison the paper makes (CLAIM_BASES)
    reading: str = ""  # how the runs read what the paper does not state (settings.unstated), in words
    # where the reading departs from a setting the paper's text states (its numbers fit only that way):
    # what the text says and what the runs do; such a verdict never lifts a status (analysis/claims/status.py)
    against_text: str = ""
    templates: tuple = ()  # the pairs as the file gives them, before resolve() named the threads of a scale

    @property
    def paper_settings(self) -> dict:
        return dict(self.settings)

    def variants(self) -> set[str]:
        baseline = {"sequential"} if self.test == "speedup" else set()  # a speed-up is over the sequential column
        return {label for pair in self.pairs for label in pair} | ({self.variant} if self.variant else set()) | baseline


def load_claims(directory: Path = CLAIMS_DIR, files: list[str] | None = None) -> list[Claim]:
    """Every claim of every file (of the files named ``files``, e.g. ["gnrpa"], when given),
    checked for what a file alone can get wrong."""
    paths = _claim_files(directory, files)
    claims = []
    for path in paths:
        content = _claims_file(path)
        for entry in content["claims"]:
            claims.append(_claim(path, content.get("paper", path.stem), entry))
    ids = [claim.id for claim in claims]
    if len(set(ids)) != len(ids):
        raise InputError(f"{directory}: claim ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    return claims


def _claim_files(directory: Path, files: list[str] | None) -> list[Path]:
    paths = sorted(directory.glob("*.yaml"))
    if files:
        unknown = sorted(set(files) - {path.stem for path in paths})
        if unknown:
            raise InputError(f"no claims file {', '.join(unknown)}: "
                             + did_you_mean(unknown[0], [p.stem for p in paths], "choose among"))
        paths = [path for path in paths if path.stem in files]
    return paths


def _claims_file(path: Path) -> dict:
    try:
        content = yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        raise InputError(f"{path}: not valid YAML: {error}") from None
    if not isinstance(content, dict) or not isinstance(content.get("claims"), list):
        raise InputError(f"{path}: expected a mapping with 'paper' and a list 'claims'")
    unknown = set(content) - {"paper", "claims", "not_tested"}
    if unknown:
        raise InputError(f"{path}: unknown key(s) {sorted(unknown)}: valid are paper, claims, not_tested")
    return content


def load_not_tested(directory: Path = CLAIMS_DIR, files: list[str] | None = None) -> list[NotTested]:
    """The papers' comparative sentences that no claim tests, each with its reason (the files'
    `not_tested:` lists): the report lists them, so "not tested" is told apart from "forgotten"."""
    sentences = []
    for path in _claim_files(directory, files):
        content = _claims_file(path)
        for number, entry in enumerate(content.get("not_tested") or [], start=1):
            if not (isinstance(entry, dict) and set(entry) == {"where", "quote", "why"}
                    and all(isinstance(value, str) and value.strip() for value in entry.values())):
                raise InputError(f"{path.name}, not_tested entry {number}: expected {{where: <section, table or "
                                 "figure>, quote: <the paper's words>, why: <why no claim tests it>}}")
            sentences.append(NotTested(paper=str(content.get("paper", path.stem)), where=entry["where"].strip(),
                                       quote=" ".join(entry["quote"].split()), why=" ".join(entry["why"].split()),
                                       file=path.stem))
    return sentences


def _claim(path: Path, paper: str, entry) -> Claim:
    where = f"{path.name}, claim {entry.get('id', '?') if isinstance(entry, dict) else entry!r}"
    if not isinstance(entry, dict):
        raise InputError(f"{where}: expected a mapping")
    unknown = set(entry) - KEYS
    if unknown:
        raise InputError(f"{where}: unknown key(s) {sorted(unknown)}: "
                         + did_you_mean(min(unknown), sorted(KEYS), "valid are"))
    missing = {"id", "kind", "text", "source", "experiment", "test", "basis"} - set(entry)
    if entry.get("kind") == "paper":
        missing |= {"settings"} - set(entry)
    if missing:
        raise InputError(f"{where}: missing {sorted(missing)}")
    if entry["kind"] not in KINDS:
        raise InputError(f"{where}: kind={entry['kind']!r} is not valid: {did_you_mean(entry['kind'], KINDS)}")
    source = entry["source"]
    if not (isinstance(source, dict) and {"where", "quote"} <= set(source) <= {"where", "quote", "figures"}
            and all(isinstance(source[key], str) and source[key].strip() for key in source)):
        raise InputError(f"{where}: source must be {{where: <section, table or figure>, quote: <the paper's words>}} "
                         "and optionally figures: <the published numbers it reads>")
    settings = entry.get("settings") or {}
    if not isinstance(settings, dict):
        raise InputError(f"{where}: settings must be a mapping of the paper's settings (checked: {', '.join(CHECKED)})")
    for key in ("seconds", "threads", "jobs", "level", "N") if entry["kind"] == "paper" else ():
        low = 0 if key == "level" else 1e-9  # a level-0 search is a playout
        if key in settings and not (isinstance(settings[key], (int, float)) and settings[key] >= low):
            raise InputError(f"{where}: settings.{key}={settings[key]!r} must be a number >= {low:g}")
    if not isinstance(settings.get("unstated", []), list):
        raise InputError(f"{where}: settings.unstated must be a list of what the paper does not state")
    if settings.get("unstated") and not (isinstance(entry.get("reading"), str) and entry["reading"].strip()):
        raise InputError(f"{where}: settings.unstated needs reading: how the runs read what the paper does not "
                         "state (the row shows the verdict under that reading), or \"none\" and why")
    if entry["basis"] not in CLAIM_BASES:
        raise InputError(f"{where}: basis={entry['basis']!r} is not valid: {did_you_mean(entry['basis'], CLAIM_BASES)}")
    if entry["test"] not in TESTS:
        raise InputError(f"{where}: test={entry['test']!r} is not valid: {did_you_mean(entry['test'], TESTS)}")
    if entry["experiment"] not in [*experiment_names(), *NEURAL]:
        raise InputError(f"{where}: experiment={entry['experiment']!r} is not valid: "
                         + did_you_mean(entry["experiment"], [*experiment_names(), *NEURAL]))
    if entry["experiment"] in NEURAL and entry["test"] != "compare":
        raise InputError(f"{where}: test={entry['test']} is not valid on the neural pipeline's results: compare")
    for key in ("epochs", "imitation_games", "hours"):
        if key in settings and not (isinstance(settings[key], (int, float)) and settings[key] > 0):
            raise InputError(f"{where}: settings.{key}={settings[key]!r} must be a number > 0")
    if "keep" in settings and not (isinstance(settings["keep"], list) and len(settings["keep"]) == 2):
        raise InputError(f"{where}: settings.keep={settings['keep']!r} must be [lowest, highest] score kept")
    pairs = [tuple(pair) for pair in entry.get("pairs", [])]
    pairs += [(better, than) for better in entry.get("better", []) for than in entry.get("than", [])]
    if any(len(pair) != 2 for pair in pairs):
        raise InputError(f"{where}: each of 'pairs' is [better, worse]")
    at = entry.get("at", "last")
    if not (at in ("every", "last") or (isinstance(at, list) and at and all(
            isinstance(t, (int, float)) and t > 0 for t in at))):
        raise InputError(f"{where}: at={at!r} is not valid: every, last, or a list of times > 0")
    needs = {"compare": ["pairs"], "total": ["pairs"], "value": ["variant", "published", "margin"],
             "gain": ["variant", "from"], "speedup": ["variant", "published", "margin"]}[entry["test"]]
    given = {"pairs": pairs, "variant": entry.get("variant"), "published": entry.get("published"),
             "margin": entry.get("margin"), "from": entry.get("from")}
    absent = [key for key in needs if not given[key]]
    if absent:
        raise InputError(f"{where}: test={entry['test']} needs {', '.join(absent)}"
                         + (" (or better and than)" if "pairs" in absent else ""))
    if entry["test"] == "speedup" and not isinstance(entry.get("published"), (int, float)):
        raise InputError(f"{where}: test=speedup needs published: the speed-up the paper gives, a number")
    if entry.get("axis") not in (None, "playouts"):
        raise InputError(f"{where}: axis={entry['axis']!r} is not valid: leave it out (time) or playouts")
    return Claim(paper=str(paper), id=str(entry["id"]), text=str(entry["text"]), experiment=entry["experiment"],
                 test=entry["test"], pairs=tuple(pairs), at=tuple(at) if isinstance(at, list) else at,
                 axis=entry.get("axis"), variant=entry.get("variant"),
                 published=str(entry["published"]) if entry.get("published") is not None else None,
                 margin=float(entry["margin"]) if entry.get("margin") is not None else None,
                 start=float(entry["from"]) if entry.get("from") is not None else None,
                 kind=entry["kind"], where=source["where"].strip(), quote=" ".join(source["quote"].split()),
                 figures=" ".join(source.get("figures", "").split()),
                 settings=tuple((key, tuple(value) if isinstance(value, list) else value)
                                for key, value in settings.items()),
                 file=path.stem, needs_cores=int(entry.get("needs_cores", 0)), basis=entry["basis"],
                 reading=" ".join(str(entry.get("reading", "")).split()),
                 against_text=" ".join(str(entry.get("against_text", "")).split()))


def resolve(claim: Claim, experiment: Experiment) -> Claim:
    """The claim with "{threads}" in its columns' names replaced by the experiment's largest
    thread count (Figure 4's "on the most threads": 32 at paper scale, 2 at quick)."""
    if not any("{threads}" in label for label in claim.variants()):
        return claim
    most = str(max(v.job.settings.threads for v in experiment.variants))
    return replace(claim, pairs=tuple((a.replace("{threads}", most), b.replace("{threads}", most))
                                      for a, b in claim.pairs), templates=claim.pairs)


def experiment_of(claim: Claim) -> str:
    """The experiment whose runs a claim reads: its own, or for a claim on the neural
    pipeline's results NEURAL_BASELINE (runs it may set beside a network's games, and the
    scale and outputs folder the results are looked for in)."""
    return NEURAL_BASELINE if claim.experiment in NEURAL else claim.experiment


def load_experiments(claims: list[Claim], overrides: list[str]) -> dict[str, Experiment]:
    """Each experiment the claims use (experiment_of), composed with ``overrides`` (scale=S,
    ...); every column a claim names checked (check_columns)."""
    experiments = {}
    for name in dict.fromkeys(experiment_of(claim) for claim in claims):
        experiments[name] = load_experiment([f"experiment={name}", *overrides])
        check_columns(claims, name, experiments[name], overrides)
    return experiments


def check_columns(claims: list[Claim], name: str, experiment: Experiment, overrides: list[str]) -> None:
    """Each column the claims on experiment ``name`` read must be one of its columns at this
    scale or, for a column only the paper's settings have (32 threads), at scale=paper; a
    claim on a neural step's results, one of the step's columns or of ``name``'s."""
    labels = {v.label for v in experiment.variants}
    for claim in claims:
        if experiment_of(claim) != name:
            continue
        if claim.experiment in NEURAL:
            known = set(neural_columns(claim.experiment)) | labels
            if not claim.variants() <= known:
                missing = sorted(claim.variants() - known)
                raise InputError(f"claim {claim.id}: {missing} are not columns of {claim.experiment} or {name}: "
                                 + did_you_mean(missing[0], sorted(known), "choose among"))
            continue
        if resolve(claim, experiment).variants() <= labels:
            continue
        at_paper = load_experiment([f"experiment={name}", *overrides, "scale=paper"])
        claim, paper = resolve(claim, at_paper), {v.label for v in at_paper.variants}
        if not claim.variants() <= labels | paper:
            missing = sorted(claim.variants() - labels - paper)
            raise InputError(f"claim {claim.id}: {missing} are not columns of {name}: "
                             + did_you_mean(missing[0], sorted(labels | paper), "choose among"))


def claim_variants(claim: Claim, experiment: Experiment) -> list:
    """The experiment's variants (columns) a claim reads: for a 20-board total, each board's."""
    labels = claim.variants()
    return [v for v in experiment.variants
            if v.label in labels or any(v.label.startswith(f"{label} board ") for label in labels)]


def neural_columns(name: str) -> list[str]:
    """The columns of a step of the neural pipeline (a claim's `experiment:` in NEURAL)."""
    from experiments.neural import step_columns

    return step_columns(NEURAL[name])
