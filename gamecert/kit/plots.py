"""Pictures of a heap game's Grundy sequence, with its preperiod and period marked (PNG).

matplotlib is an optional extra (``pip install gamecert[plot]``). Without it,
:func:`write_plot` says so and writes nothing; it never fails a run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class SequencePlot:
    """What a plot shows: G(0) .. G(len(values) - 1), eventually periodic from ``preperiod``."""

    name: str
    title: str
    values: tuple[int, ...]
    preperiod: int
    period: int

    def describe(self) -> str:
        return f"{self.title}: {len(self.values)} values, preperiod {self.preperiod}, period {self.period}"


def matplotlib_missing() -> str | None:
    """Why plots cannot be drawn here, or None if they can."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        return f"matplotlib is not installed ({exc}); install the 'plot' extra to get plots"
    return None


def write_plot(plot: SequencePlot, directory: str) -> tuple[str | None, str]:
    """Draw ``plot`` into ``directory/<name>-grundy.png``: (path or None, a line saying what happened)."""
    why = matplotlib_missing()
    if why:
        return None, f"plot skipped: {why}"
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    from matplotlib import pyplot as plt

    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{plot.name}-grundy.png")
    n = range(len(plot.values))
    e, p = plot.preperiod, plot.period
    fig, ax = plt.subplots(figsize=(12, 3.5))
    try:
        ax.plot(n, plot.values, drawstyle="steps-mid", linewidth=0.9, color="0.25", label="G(n)")
        ax.axvspan(
            -0.5,
            e - 0.5,
            color="tab:orange",
            alpha=0.15,
            label=f"preperiod (0..{e - 1})" if e else "no preperiod",
        )
        for start in range(e, len(plot.values), p):
            ax.axvline(start - 0.5, color="tab:blue", linewidth=0.6, alpha=0.6)
        if e + p <= len(plot.values):
            ax.axvspan(
                e - 0.5,
                e + p - 0.5,
                color="tab:blue",
                alpha=0.12,
                label=f"first period ({e}..{e + p - 1})",
            )
        ax.set_xlabel("heap size n")
        ax.set_ylabel("Grundy value")
        ax.set_title(f"{plot.title} (preperiod {e}, period {p})")
        ax.set_xlim(-0.5, len(plot.values) - 0.5)
        ax.legend(loc="upper right", fontsize="small")
        fig.tight_layout()
        tmp = path + ".tmp.png"
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, path)  # never leave a half-written picture
    finally:
        plt.close(fig)
    return path, f"plot written: {path}"
