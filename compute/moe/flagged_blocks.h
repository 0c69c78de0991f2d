// Data as flag (UBEP's token-flag fusion): a message of float32 rows travels as 512-byte
// blocks of 480 bytes of payload and a 32-byte flag, each block written whole, so a receiver
// that finds every block's flag set knows the whole message is in without a barrier or a
// separate flag message. The payload's last block is padded with zeros.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <string>

namespace uniference {

constexpr int64_t kFlaggedBlockBytes = 512;
constexpr int64_t kFlagBytes = 32;
constexpr int64_t kBlockPayloadBytes = kFlaggedBlockBytes - kFlagBytes;

// Blocks a payload of `payload_bytes` takes (0 for none).
int64_t flagged_blocks(int64_t payload_bytes);

// rows float32 [n, dim] -> [blocks, 128] float32: each block's first 120 floats carry the
// payload in order, its last 8 the flag value. Meta rows give a meta result.
at::Tensor pack_flagged(const at::Tensor& rows, float flag);

// The rows back out of blocks packed by pack_flagged, [rows, dim]. Throws std::runtime_error
// naming `from` when a block's flag is not `flag` (a block not yet, or wrongly, written).
at::Tensor unpack_flagged(const at::Tensor& blocks, int64_t rows, int64_t dim, float flag,
                          const std::string& from);

}  // namespace uniference
