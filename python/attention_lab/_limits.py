"""The lab's limits, as its C++ code states them (tests/test_limits.py reads them there).

Data beyond them would reach the page only to be refused there; checking them in Python
raises the error before anything is displayed.
"""

# lab::Limits, src/state/state.h: what the walkthrough shows.
MAX_N = 2048           # n_q and n_k
MAX_D = 256            # d_k and d_v
MAX_BATCH = 8          # sequences of a padded batch ...
MAX_BATCH_SCORES = 1 << 23  # ... holding at most this many scores in all
MAX_VALUE = 100.0      # |entry| of q, k and v
MAX_CUSTOM_SCALE = 1000.0

# attn::io::Limits, src/io/contract.h: what the contract's parser accepts.
MAX_TENSOR_ELEMENTS = 1 << 24

# lab::Limits, src/state/state.h: view=model's text, in bytes of UTF-8.
MAX_TEXT_BYTES = 2048
# show_model(model=DIR): the files an output carries inside itself, at most (gzip makes them a
# little smaller, base 85 a quarter larger); past it the page's own Open model… reads them.
MAX_MODEL_BYTES = 50 * 1000 * 1000

# src/model/load.cpp: an axis label, not a paragraph.
MAX_TOKEN_BYTES = 40

# The state's names (src/state/state.cpp) that show() passes on.
STEPS = ("scores", "scale", "mask", "softmax", "output")
THEMES = ("light", "dark", "auto")
LANGUAGES = ("en", "es", "auto")
