#include "plot_layout.h"

#include <algorithm>
#include <cmath>

namespace ui {

std::vector<double> axis_ticks(double lo, double hi, bool log, bool base2, bool integer, int most) {
  std::vector<double> out;
  most = std::max(2, most);
  if (log) {
    const double base = base2 ? 2 : 10, lb = std::log(base);
    const int e0 = int(std::ceil(std::log(lo) / lb - 1e-9)), e1 = int(std::floor(std::log(hi) / lb + 1e-9));
    const int every = std::max(1, (e1 - e0 + most) / most);
    for (int e = e0; e <= e1; e += every) out.push_back(std::pow(base, e));
    return out;
  }
  const double raw = (hi - lo) / most, mag = std::pow(10, std::floor(std::log10(raw)));
  double step = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag;
  if (integer) step = std::max(step, 1.0);
  auto fill = [&] {
    out.clear();
    for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
      out.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  };
  fill();
  // A step rounded up past half the range can leave one tick (±92 at a step of 100: only 0),
  // an axis nobody can read a spread from: the next 1-2-5 step down, even past `most`.
  while (out.size() < 2 && !(integer && step <= 1)) {
    const double m = step / std::pow(10, std::floor(std::log10(step) + 1e-9));
    step *= m < 3 ? 0.5 : 0.4;  // 1 → 0.5, 2 → 1, 5 → 2
    fill();
  }
  return out;
}

namespace {

bool covers(float from, float width, float x, float gap) { return x >= from - gap && x <= from + width + gap; }

}  // namespace

std::vector<MarkerLabelPlace> place_marker_labels(const std::vector<MarkerLabelInput>& labels, float left, float right,
                                                  float row0_taken, float gap, float beside) {
  std::vector<MarkerLabelPlace> places;
  auto free = [&](float at, float width, float x, int row) {
    if (at < left || at + width > right) return false;
    if (row == 0 && at < row0_taken + gap) return false;
    for (std::size_t j = 0; j < places.size(); ++j) {
      const MarkerLabelPlace& p = places[j];
      const MarkerLabelInput& o = labels[j];
      if (p.row == row && at < p.left + o.width + gap && p.left < at + width + gap) return false;
      if (p.row < row && covers(at, width, o.x, gap)) return false;  // j's line rises through this row
      if (p.row > row && covers(p.left, o.width, x, gap)) return false;  // this line would cross j's label
    }
    return true;
  };
  for (const MarkerLabelInput& m : labels) {
    const float sides[] = {m.x + beside, m.x - beside - m.width};
    bool placed = false;
    for (int row = 0; row <= int(labels.size()) && !placed; ++row)
      for (float at : sides)
        if (free(at, m.width, m.x, row)) {
          places.push_back({at, row});
          placed = true;
          break;
        }
    // Wider than the plot, or hemmed in by lines: a row of its own under the others, centred
    // on its line as far as the plot allows.
    if (!placed)
      places.push_back({std::max(left, std::min(m.x - m.width * 0.5f, right - m.width)), marker_label_rows(places)});
  }
  return places;
}

int marker_label_rows(const std::vector<MarkerLabelPlace>& places) {
  int rows = 1;
  for (const MarkerLabelPlace& p : places) rows = std::max(rows, p.row + 1);
  return rows;
}

}  // namespace ui
