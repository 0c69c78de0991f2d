#include "compute/moe/flagged_blocks.h"

#include <stdexcept>

namespace uniference {

namespace {
constexpr int64_t kBlockFloats = kFlaggedBlockBytes / int64_t(sizeof(float));
constexpr int64_t kPayloadFloats = kBlockPayloadBytes / int64_t(sizeof(float));
}  // namespace

int64_t flagged_blocks(int64_t payload_bytes) {
  return (payload_bytes + kBlockPayloadBytes - 1) / kBlockPayloadBytes;
}

at::Tensor pack_flagged(const at::Tensor& rows, float flag) {
  const int64_t floats = rows.numel();
  const int64_t blocks = flagged_blocks(floats * int64_t(sizeof(float)));
  at::Tensor packed = at::zeros({blocks, kBlockFloats}, rows.options());
  if (blocks == 0) return packed;
  // The payload fills the blocks' first 120 floats, row after row: a [blocks * 120] view of
  // those columns in order.
  at::Tensor payload = at::zeros({blocks * kPayloadFloats}, rows.options());
  payload.narrow(0, 0, floats).copy_(rows.reshape({floats}));
  packed.narrow(1, 0, kPayloadFloats).copy_(payload.view({blocks, kPayloadFloats}));
  packed.narrow(1, kPayloadFloats, kBlockFloats - kPayloadFloats).fill_(flag);
  return packed;
}

at::Tensor unpack_flagged(const at::Tensor& blocks, int64_t rows, int64_t dim, float flag,
                          const std::string& from) {
  const int64_t count = blocks.size(0);
  if (!blocks.is_meta() && count > 0) {
    const at::Tensor flags = blocks.narrow(1, kPayloadFloats, kBlockFloats - kPayloadFloats);
    const at::Tensor wrong = flags.ne(flag).any(1);
    if (wrong.any().item<bool>()) {
      const int64_t block = wrong.nonzero()[0][0].item<int64_t>();
      throw std::runtime_error("tokens from " + from + ": block " + std::to_string(block) +
                               " of " + std::to_string(count) + " has flag " +
                               std::to_string(flags[block][0].item<float>()) + ", expected " +
                               std::to_string(flag));
    }
  }
  return blocks.narrow(1, 0, kPayloadFloats).reshape({count * kPayloadFloats})
      .narrow(0, 0, rows * dim)
      .view({rows, dim});
}

}  // namespace uniference
