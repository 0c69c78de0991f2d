// The communication of tensor parallelism, in one place (Megatron's mappings): the
// parallel layers call these and nothing else of Comm, so the TP traffic a model makes is
// read here, and a strategy that reshapes it changes one file.
#pragma once

#include <ATen/ATen.h>

#include "compute/comm.h"

namespace uniference {

// Sums the partial results of a row-parallel layer (or of the vocabulary shards of an
// embedding) over the group, in place.
void reduce_from_tensor_parallel_region(Comm& group, at::Tensor& partial);

// Concatenates each rank's slice of the last (feature) dimension, in rank order: the full
// output of a column-parallel layer on every rank.
at::Tensor gather_from_tensor_parallel_region(Comm& group, const at::Tensor& local);

}  // namespace uniference
