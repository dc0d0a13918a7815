"""What ``python run.py ...`` does with a composed config: one run, stored and reported."""

from __future__ import annotations

from dataclasses import fields

from omegaconf import DictConfig, OmegaConf

from experiments.runs import run_once
from experiments.store import RunStore
from nrpa.domains.registry import make_domain
from nrpa.search import SearchSettings

def settings_from(cfg: DictConfig) -> SearchSettings:
    return SearchSettings(**{f.name: cfg[f.name] for f in fields(SearchSettings)})


def run_from_config(cfg: DictConfig) -> float:
    settings = settings_from(cfg)
    domain_options = make_domain(OmegaConf.to_container(cfg.domain, resolve=True)).options
    record, path, ran = run_once(domain_options, settings, RunStore(cfg.outputs_dir), force=cfg.force)
    result = record["result"]
    print(
        f"best score {record['result']['best_score']:g}  ({record['domain_info']['board']}, "
        f"{_describe(settings)}, {result['playouts']} playouts in {result['cpu_seconds']:.2f} CPU-s "
        f"/ {result['wall_seconds']:.2f} wall-s, {result['playouts_per_cpu_second']:,.0f} playouts per CPU-s)"
    )
    if ran:
        print(f"run file: {path}")
    else:
        print(f"run file: {path} (already in the store, not run again; force=true runs it anew)")
    return float(result["best_score"])


def _describe(settings: SearchSettings) -> str:
    if settings.algorithm == "nmcs":
        return f"NMCS level {settings.level}"
    name = "NRPA" if settings.algorithm == "nrpa" else f"SNRPA({settings.P})"
    return f"{name} level {settings.level} N={settings.N} alpha={settings.alpha:g}"
