// Names for compute. Shard code says what it is about to compute ("layer3.q_proj"), and
// whoever charges compute attributes the time to that name until the next label: the
// simulator splits its compute spans there and tags the communication issued under the
// label with it. Without a sink installed (a real deployment) a label costs a call.
#pragma once

#include <functional>
#include <string>

namespace uniference {

using ComputeLabelSink = std::function<void(const std::string& label)>;

// Installs the process's sink (an empty function removes it). The simulator installs one
// for the length of a run; labels from any thread then reach it.
void set_compute_label_sink(ComputeLabelSink sink);

// From here on, this device computes `label`.
void label_compute(const std::string& label);

// "layer3." + op: the label of an operation of decoder layer 3.
std::string layer_label(int64_t layer, const char* op);

}  // namespace uniference
