#include "compute/device_measure.h"

#include "compute/compute_meter.h"

#include <ATen/ATen.h>
#include <unistd.h>

#include <algorithm>

namespace uniference {

namespace {

// The fastest of `repeats` runs of f, in seconds.
template <typename F>
double best_seconds(int repeats, F f) {
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) {
    const int64_t start = steady_clock_ns();
    f();
    best = std::min(best, double(steady_clock_ns() - start) * 1e-9);
  }
  return best;
}

double matmul_flops_per_second(at::ScalarType dtype, int64_t n) {
  const at::Tensor a = at::rand({n, n}).to(dtype), b = at::rand({n, n}).to(dtype);
  at::mm(a, b);  // warm up
  const double seconds = best_seconds(3, [&] { at::mm(a, b); });
  return 2.0 * double(n) * double(n) * double(n) / seconds;
}

}  // namespace

DeviceProfileSpec measure_this_device(const std::string& name, const std::string& description) {
  at::NoGradGuard no_grad;
  DeviceProfileSpec spec;
  spec.name = name;
  spec.description = description;
  spec.peak_flops["fp32"] = matmul_flops_per_second(at::kFloat, 512);
  spec.peak_flops["bf16"] = matmul_flops_per_second(at::kBFloat16, 256);

  const at::Tensor source = at::rand({int64_t(32) << 20});  // 128 MiB
  at::Tensor target = at::empty_like(source);
  target.copy_(source);
  const double copy = best_seconds(5, [&] { target.copy_(source); });
  spec.memory_bandwidth = 2.0 * double(source.nbytes()) / copy;

  const at::Tensor one = at::ones({1});
  const int calls = 20000;
  const double adds = best_seconds(3, [&] {
    for (int i = 0; i < calls; ++i) at::add(one, one);
  });
  spec.launch_ns = adds / calls * 1e9;
  spec.memory_bytes = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  return spec;
}

}  // namespace uniference
