"""The Morpion paper's neural results on the results site: Tables 1-4 and Figures 2-6 as
`python -m analysis.results.neural` (analysis/results/neural_report.py) wrote them under outputs/tables and
outputs/figures. They come from trained networks and game sets, not from runs in the store, so
the site shows the files as they are (the tables with the published columns beside ours, the
figures as images); a step not made yet says which command makes it."""

from __future__ import annotations

import html
import shutil
from pathlib import Path

from analysis.site.sections import href, markdown_html, missing_note

SECTION_ID = "morpion_neural"
NEURAL_TITLE = "Neural policies (Tables 1-4, Figures 2-6)"
# (the step's title, its Makefile target, its tables' stems, its figures' stems), in the paper's order
STEPS = (
    ("Table 1, Figures 2-4: imitation networks trained on NRPA games", "morpion-table1",
     ("morpion_table1",), ("morpion_fig2", "morpion_fig3", "morpion_fig4")),
    ("Table 2 (neural rows), Figure 5: games sampled from the networks", "morpion-table2",
     ("morpion_table2_neural",), ("morpion_fig5",)),
    ("Table 3: Nested(1) with the ResNet R2 network", "morpion-table3", ("morpion_table3",), ()),
    ("Table 4, Figure 6: Expert Iteration", "morpion-table4", ("morpion_table4",), ("morpion_fig6",)),
)


def neural_section(root: Path, scale: str, folder: Path) -> str:
    """The section's HTML from <root>/tables and <root>/figures at ``scale``; its images are
    copied to ``folder``/img."""
    parts = []
    for title, target, tables, figures in STEPS:
        parts.append(f"<h3>{html.escape(title)}</h3>")
        found = [root / "tables" / f"{stem}_{scale}.md" for stem in tables]
        found = [path for path in found if path.is_file()]
        if not found:
            parts.append(missing_note(f"Not made at {scale} scale: `make {target} SCALE={scale}` makes it "
                                      "(needs PyTorch)."))
            continue
        parts += [markdown_html(path.read_text(), [], []) for path in found]
        for stem in figures:
            image = root / "figures" / f"{stem}_{scale}.png"
            if image.is_file():
                (folder / "img").mkdir(parents=True, exist_ok=True)
                shutil.copy2(image, folder / "img" / image.name)
                parts.append(f'<figure><img src="{href(f"img/{image.name}")}" alt="{html.escape(title)}: {stem}">'
                             f"<figcaption>{html.escape(image.name)}</figcaption></figure>")
    return (f'<section id="{SECTION_ID}"><h2>{NEURAL_TITLE}</h2>\n'
            '<p class="meta">From <code>python -m analysis.results.neural</code> (the trained networks and game sets '
            f"under outputs/neural/{html.escape(scale)}/), not from runs in the store: the tables are the files it "
            "wrote, "
            "published columns beside ours.</p>\n" + "\n".join(parts) + "</section>")
