#include "tiling.h"

#include <cmath>
#include <stdexcept>

#include "sampling.h"
#include "tiled.h"

namespace experiments {

namespace {

constexpr int kD = 16;

}  // namespace

TilingData tiling(int n, int tile, std::uint32_t seed) {
  if (n < 1 || n > kTilingMaxN) throw std::invalid_argument("n must be between 1 and " + std::to_string(kTilingMaxN));
  if (tile < 1 || tile > n) throw std::invalid_argument("the tile must hold between 1 and n keys");
  attn::Shape s;
  s.nq = s.nk = n;
  s.dk = s.dv = kD;
  const Problem p = random_problem(s, seed);
  attn::Options o;
  o.scale = attn::scale_for(attn::ScaleMode::inv_sqrt_dk, kD);

  TilingData d;
  d.n = n;
  d.tile = tile;
  d.dk = d.dv = kD;
  d.seed = seed;
  d.walk = attn::online_softmax_walk(p.inputs(), o, tile);
  d.reference_output = attn::reference_forward(p.inputs(), o).heads.front().output;
  d.tiled_output.resize(n, kD);
  attn::tiled_forward(p.inputs(), o, d.tiled_output.data());
  d.walk_difference = (d.walk.output - d.reference_output).cwiseAbs().maxCoeff();
  d.tiled_difference = (d.tiled_output - d.reference_output).cwiseAbs().maxCoeff();

  for (int m = 64; m <= 65536; m *= 2) {
    d.memory_n.push_back(m);
    d.score_bytes.push_back(4.0 * double(m) * m);
    d.tiled_bytes.push_back(4.0 * double(attn::online_walk_working_floats(tile, kD, kD)));
  }
  return d;
}

}  // namespace experiments
