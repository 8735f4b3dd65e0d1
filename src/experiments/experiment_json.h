// The object attentionLab.experiment() returns for each experiment view, as JSON text: the
// view's name under "view", then its named arrays and numbers, with the struct fields' names
// (see each experiment's header for what the axes mean). Matrices are arrays of rows. Numbers
// are float32 printed as their shortest decimal; NaN and ±∞, which JSON cannot hold, are the
// strings "nan", "inf" and "-inf" (the contract's spelling of −∞).
#pragma once

#include <string>
#include <variant>

#include "cost.h"
#include "gradients.h"
#include "heads.h"
#include "pitfalls.h"
#include "scaling.h"
#include "stability.h"
#include "tiling.h"

namespace experiments {

using ExperimentData =
    std::variant<ScalingData, GradientsData, PitfallsData, StabilityData, TilingData, HeadsData, CostData>;

std::string experiment_json(const ExperimentData& data);

}  // namespace experiments
