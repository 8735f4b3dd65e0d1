import pathlib
import sys

# The tests import the package from this source tree (python/) and their reference beside them.
sys.path[:0] = [str(pathlib.Path(__file__).resolve().parents[1]), str(pathlib.Path(__file__).resolve().parent)]
