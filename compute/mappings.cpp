#include "compute/mappings.h"

namespace uniference {

void reduce_from_tensor_parallel_region(Comm& group, at::Tensor& partial) {
  group.all_reduce(partial);
}

at::Tensor gather_from_tensor_parallel_region(Comm& group, const at::Tensor& local) {
  // all_gather stacks the ranks' tensors along dim 0; a column-parallel output needs them
  // side by side along the feature (last) dim instead.
  const int world = group.size();
  const int64_t features = local.size(-1);
  const at::Tensor rows = local.reshape({-1, features}).contiguous();
  at::Tensor gathered = empty_gather_output(rows, world);
  group.all_gather(gathered, rows);
  std::vector<int64_t> sizes = local.sizes().vec();
  sizes.back() = features * world;
  return gathered.view({world, rows.size(0), features}).permute({1, 0, 2}).reshape(sizes);
}

}  // namespace uniference
