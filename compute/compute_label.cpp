#include "compute/compute_label.h"

#include <utility>

namespace uniference {

namespace {
ComputeLabelSink& sink() {
  static ComputeLabelSink installed;
  return installed;
}
}  // namespace

void set_compute_label_sink(ComputeLabelSink new_sink) { sink() = std::move(new_sink); }

void label_compute(const std::string& label) {
  if (const ComputeLabelSink& installed = sink()) installed(label);
}

std::string layer_label(int64_t layer, const char* op) {
  return "layer" + std::to_string(layer) + "." + op;
}

}  // namespace uniference
