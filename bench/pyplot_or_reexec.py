"""matplotlib's pyplot on the Agg backend (no display needed) for drape's plotting scripts
(bench/plot.py, bench/plot_particles.py). Run by a python3 without matplotlib (a pyenv or a
virtual environment first on PATH), the script runs itself again with Debian's /usr/bin/python3,
which scripts/setup.sh gives python3-matplotlib, or exits saying what to install.
"""
import os
import sys

SYSTEM_PYTHON = "/usr/bin/python3"


def pyplot(program):
    try:
        import matplotlib
    except ImportError:
        if os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON) and \
                os.access(SYSTEM_PYTHON, os.X_OK) and not os.environ.get("DRAPE_PLOT_REEXEC"):
            os.environ["DRAPE_PLOT_REEXEC"] = "1"
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
        sys.exit(f"{program}: matplotlib is not installed for {sys.executable}: install Debian's "
                 f"python3-matplotlib (bash scripts/setup.sh does, for {SYSTEM_PYTHON}) or "
                 "`pip install matplotlib` for this python3")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt
