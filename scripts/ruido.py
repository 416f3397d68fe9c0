"""How many golden games still end right when the recognizer errs.

    .venv/bin/python scripts/ruido.py [--tasa 0.1] [--semillas 20]

Each line of each golden game is, with probability ``--tasa``, heard through
one kind of error (``tests/noisy.py``): the truth second behind a confusable
reading (swap), behind a reading with a bar word in it (insert), or replaced
by a confusable reading with nothing else to choose (substitute).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import noisy  # noqa: E402
from tests.test_golden import SCRIPTS  # noqa: E402


def summary(outcomes: list[noisy.Outcome]) -> dict[str, int]:
    return {
        "partidas": len(outcomes),
        "terminan_igual": sum(o.same_end for o in outcomes),
        "cada_linea_igual": sum(o.same_acceptance and o.same_end for o in outcomes),
        "lineas_con_ruido": sum(o.corrupted for o in outcomes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasa", type=float, default=0.1)
    parser.add_argument("--semillas", type=int, default=20)
    args = parser.parse_args()
    seeds = range(args.semillas)
    table: dict[str, dict[str, int]] = {kind: summary([noisy.run(path, kind, seed, args.tasa) for path in SCRIPTS for seed in seeds])
             for kind in noisy.KINDS}
    for kind in ("swap", "insert"):  # the errors choosing can undo: the wrong readings are illegal or unparseable
        table[f"{kind}_ilegal"] = summary(
            [noisy.run(path, kind, seed, args.tasa, only_harmless=True) for path in SCRIPTS for seed in seeds]
        )
    print(json.dumps(table, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
