"""What a notebook output costs: the bytes of each show() output (its text/html, as a notebook
file stores it, and the whole mimebundle with the picture and text), and of what it carries,
for the shapes docs/notebooks.md names. Random float32 data (it barely compresses, like real
activations). Run by scripts/bench.sh --notebook, after scripts/build.sh web.

    PYTHONPATH=python python3 bench/notebook_sizes.py
"""

import json
import re

import numpy as np

import attention_lab

SHAPES = [  # (heads, tokens, d): docs/notebooks.md's show() example, then its cost figures
    (2, 6, 4),
    (12, 16, 64),
    (12, 128, 64),
]


def main():
    rng = np.random.default_rng(0)
    print(f"attention_lab {attention_lab.__version__}")
    print(f"{'heads × n × d':>14} {'text/html':>11} {'bundle':>11} {'app':>9} {'data':>9} {'picture':>8}")
    for heads, n, d in SHAPES:
        lab = attention_lab.show(*(rng.standard_normal((heads, n, d)).astype(np.float32) for _ in range(3)))
        bundle = lab._repr_mimebundle_()
        payload = json.loads(re.search(r'id="lab-payload">(.*?)</script>', lab.document, re.S).group(1))
        app = len(payload["app"]) + len(payload["wasm"])
        data = sum(len(t["data"]) for t in payload["tensors"].values())
        print(f"{f'{heads} × {n} × {d}':>14} {len(bundle['text/html']):>11,} {sum(map(len, bundle.values())):>11,} "
              f"{app:>9,} {data:>9,} {len(bundle['image/png']):>8,}")


if __name__ == "__main__":
    main()
