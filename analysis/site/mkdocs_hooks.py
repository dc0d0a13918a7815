"""mkdocs hooks (mkdocs.yml `hooks:`): the generated reference pages, made from the Makefile
and the Hydra schema at each build (analysis/site/docs_reference.py), so they cannot drift."""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[2]  # the project: analysis/site/ is two folders down
if str(ROOT) not in sys.path:  # the project's modules, from a checkout without `pip install -e`
    sys.path.insert(0, str(ROOT))

from analysis.site.docs_reference import config_page, make_page, results_page  # noqa: E402

GENERATED = {"reference/make-targets.md": make_page, "reference/config.md": config_page,
             "results/index.md": results_page}


def on_files(files, config):
    for path, page in GENERATED.items():
        files.append(File.generated(config, path, content=page()))
    return files
