// A CPU tensor as bytes and back (its type, shape and values), for the values that travel
// beside the packets between the processes of a distributed simulation (bridge/distributed.h).
#pragma once

#include <ATen/ATen.h>

#include <string>

namespace uniference {

std::string tensor_to_bytes(const at::Tensor& tensor);
// Throws std::invalid_argument on bytes tensor_to_bytes did not make.
at::Tensor tensor_from_bytes(const std::string& bytes);

}  // namespace uniference
