"""The package's limits and names are the C++ code's: read there, in the source tree."""

import re
from pathlib import Path

import pytest

from attention_lab import _limits

SRC = Path(__file__).resolve().parents[2] / "src"
pytestmark = pytest.mark.skipif(not SRC.is_dir(), reason="not in the project's source tree")


def constant(path, name):
    """A `static constexpr <type> name = <value>;` of a header, its value evaluated (integer
    literals, shifts, float literals; the type's casts read as the number they cast)."""
    found = re.search(rf"static constexpr [\w:]+ {name} = ([^;]+);", (SRC / path).read_text())
    assert found, f"{name} not in {path}"
    expression = re.sub(r"std::\w+\((\d+)\)", r"\1", found.group(1))
    expression = re.sub(r"(\d+(?:\.\d+)?)[uf]\b", r"\1", expression)
    assert re.fullmatch(r"[\d.\s<]+", expression), expression
    return eval(expression)


def names(path, enum):
    """The link's spelling of each value of `enum`: its `Names<enum>` list in the state's headers."""
    found = re.search(rf"struct Names<{enum}> \{{\s*static constexpr const char\* list\[\] = \{{([^}}]+)\}}",
                      (SRC / path).read_text())
    assert found, f"Names<{enum}> not in {path}"
    return tuple(re.findall(r'"(\w+)"', found.group(1)))


def test_limits_are_the_labs():
    assert _limits.MAX_N == constant("state/state.h", "max_n")
    assert _limits.MAX_D == constant("state/state.h", "max_d")
    assert _limits.MAX_BATCH == constant("state/state.h", "max_batch")
    assert _limits.MAX_BATCH_SCORES == constant("state/state.h", "max_batch_scores")
    assert _limits.MAX_VALUE == constant("state/state.h", "max_value")
    assert _limits.MAX_CUSTOM_SCALE == constant("state/state.h", "max_custom_scale")
    assert _limits.MAX_TEXT_BYTES == constant("state/state.h", "max_text_bytes")
    assert _limits.MAX_TENSOR_ELEMENTS == constant("io/contract.h", "max_tensor_elements")
    assert f"size() > {_limits.MAX_TOKEN_BYTES})" in (SRC / "model/load.cpp").read_text()


def test_names_are_the_states():
    # step=input is not offered: loaded data is cross-attention, which has no input X.
    assert ("input",) + _limits.STEPS == names("state/state.h", "Step")
    assert _limits.THEMES == names("state/choices.h", "Theme")
    assert _limits.LANGUAGES == names("state/choices.h", "Language")
