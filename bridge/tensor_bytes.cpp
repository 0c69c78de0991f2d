#include "bridge/tensor_bytes.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace uniference {

std::string tensor_to_bytes(const at::Tensor& tensor) {
  const at::Tensor values = tensor.detach().contiguous().cpu();
  const int64_t type = int64_t(values.scalar_type());
  const int64_t dims = values.dim();
  std::string bytes;
  bytes.append(reinterpret_cast<const char*>(&type), sizeof type);
  bytes.append(reinterpret_cast<const char*>(&dims), sizeof dims);
  for (int64_t size : values.sizes()) bytes.append(reinterpret_cast<const char*>(&size), sizeof size);
  bytes.append(static_cast<const char*>(values.data_ptr()), values.nbytes());
  return bytes;
}

at::Tensor tensor_from_bytes(const std::string& bytes) {
  size_t at = 0;
  const auto next = [&]() {
    if (at + sizeof(int64_t) > bytes.size()) throw std::invalid_argument("tensor bytes: cut short");
    int64_t value = 0;
    std::memcpy(&value, bytes.data() + at, sizeof value);
    at += sizeof value;
    return value;
  };
  const auto type = at::ScalarType(next());
  const int64_t dims = next();
  if (dims < 0 || dims > 64) throw std::invalid_argument("tensor bytes: not a tensor");
  std::vector<int64_t> sizes;
  for (int64_t d = 0; d < dims; ++d) sizes.push_back(next());
  at::Tensor tensor = at::empty(sizes, at::TensorOptions().dtype(type));
  if (bytes.size() - at != tensor.nbytes()) {
    throw std::invalid_argument("tensor bytes: " + std::to_string(bytes.size() - at) +
                                " bytes of values for " + std::to_string(tensor.nbytes()));
  }
  std::memcpy(tensor.data_ptr(), bytes.data() + at, tensor.nbytes());
  return tensor;
}

}  // namespace uniference
