"""python3 -m attention_lab export ckpt.pt [--meta meta.pkl] --out DIR (docs/your-model.md)."""
import argparse
import sys

from .export import export


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m attention_lab")
    commands = parser.add_subparsers(dest="command", required=True)
    e = commands.add_parser("export", help="nanoGPT's ckpt.pt as files the lab opens")
    e.add_argument("checkpoint")
    e.add_argument("--meta", help="meta.pkl of a character run (its itos)")
    e.add_argument("--out", required=True)
    a = parser.parse_args(argv)
    try:
        print(export(a.checkpoint, a.out, a.meta))
    except (OSError, ValueError, KeyError) as err:
        print(f"attention_lab export: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
