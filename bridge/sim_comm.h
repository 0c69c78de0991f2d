// Comm over ns-3: the backend that turns shard code's communication into packet
// flows of the exact byte sizes, and charges the compute between calls as simulated
// time. Shard code cannot tell it from a real backend.
#pragma once

#include "bridge/sim_backend.h"
#include "compute/comm.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace uniference {

class SimComm : public Comm {
 public:
  // The member at `index` of `group` (group 0 is the world).
  SimComm(SimBackend& backend, int group, int index);

  int rank() const override { return index_; }
  int size() const override { return static_cast<int>(members_.size()); }

  WorkPtr isend(const at::Tensor& tensor, int dst, int tag = 0) override;
  WorkPtr irecv(at::Tensor& tensor, int src, int tag = 0) override;
  WorkPtr ibroadcast(at::Tensor& tensor, int root) override;
  WorkPtr iall_reduce(at::Tensor& tensor, ReduceOp op = ReduceOp::kSum) override;
  WorkPtr iall_gather(at::Tensor& output, const at::Tensor& input) override;
  WorkPtr ibarrier() override;
  WorkPtr ireduce_scatter(at::Tensor& output, const at::Tensor& input,
                          ReduceOp op = ReduceOp::kSum) override;
  WorkPtr iall_to_all(at::Tensor& output, const at::Tensor& input) override;
  WorkPtr iall_to_all_v(at::Tensor& output, const at::Tensor& input,
                        const std::vector<int64_t>& output_splits,
                        const std::vector<int64_t>& input_splits) override;
  WorkPtr ireduce(at::Tensor& tensor, int root, ReduceOp op = ReduceOp::kSum) override;
  WorkPtr igather(at::Tensor& output, const at::Tensor& input, int root) override;
  WorkPtr iscatter(at::Tensor& output, const at::Tensor& input, int root) override;
  std::shared_ptr<Comm> split(const std::vector<int>& ranks) override;

 private:
  int world_rank(int group_rank, const char* operation) const;
  WorkPtr collective(const CollectiveArgs& args);
  // Throws std::invalid_argument unless `tensor` has `expected` elements.
  void check_numel(const char* operation, const char* what, const at::Tensor& tensor,
                   int64_t expected) const;
  void check_stacked(const char* operation, const char* what, const at::Tensor& whole,
                     const at::Tensor& block) const;

  SimBackend& backend_;
  int group_;
  int index_;
  std::vector<int> members_;
  uint64_t next_collective_ = 0;
  uint64_t next_split_ = 0;
};

}  // namespace uniference
