#include "heads.h"

#include <stdexcept>

#include "sampling.h"

namespace experiments {

HeadsData heads(int heads, int kv_heads, int nq, int nk, int dk, int dv, std::uint32_t seed) {
  attn::Shape s;
  s.heads = heads;
  s.kv_heads = kv_heads;
  s.nq = nq;
  s.nk = nk;
  s.dk = dk;
  s.dv = dv;
  if (const std::string problem = attn::validate(s); !problem.empty()) throw std::invalid_argument(problem);
  if (heads > kHeadsMaxHeads || nq > kHeadsMaxSize || nk > kHeadsMaxSize || dk > kHeadsMaxSize || dv > kHeadsMaxSize)
    throw std::invalid_argument("at most " + std::to_string(kHeadsMaxHeads) + " heads and sizes of at most " +
                                std::to_string(kHeadsMaxSize) + " fit the view");

  const Problem p = random_problem(s, seed);
  attn::Options o;
  o.scale = attn::scale_for(attn::ScaleMode::inv_sqrt_dk, dk);
  const attn::Trace trace = attn::reference_forward(p.inputs(), o);

  HeadsData d;
  d.shape = s;
  d.seed = seed;
  d.cross = nq != nk;
  d.q_shape = {s.batch, heads, nq, dk};
  d.k_shape = {s.batch, kv_heads, nk, dk};
  d.v_shape = {s.batch, kv_heads, nk, dv};
  d.weights_shape = {s.batch, heads, nq, nk};
  d.output_shape = {s.batch, heads, nq, dv};
  d.concat_shape = {s.batch, nq, heads * dv};
  d.concatenated.resize(nq, heads * dv);
  d.groups.resize(std::size_t(kv_heads));
  for (const attn::HeadTrace& t : trace.heads) {
    d.heads.push_back({t.head, t.kv_head, t.weights, t.output});
    d.concatenated.middleCols(t.head * dv, dv) = t.output;
    d.groups[std::size_t(t.kv_head)].push_back(t.head);
  }
  return d;
}

}  // namespace experiments
